"""A parent asking whether there is a strike now, whether a group of workers strikes, about their own
child's EA, or where to get updates: the first sentence they read, at the time they ask."""

from datetime import datetime

import pytest

from tests.conftest import TORONTO


def at(month, day, hour=9):
    return datetime(2019, month, day, hour, tzinfo=TORONTO)


def first(say, text, when):
    return say(text, at=when).split("\n")[0]


@pytest.mark.parametrize("text", ["is there a strike right now", "are they on strike", "are they striking now",
                                  "is it a real strike or only work to rule?"])
def test_is_there_a_strike_now_on_oct_3_is_work_to_rule_not_a_full_strike(say, text):
    line = first(say, text, at(10, 3))
    assert line.startswith("Not a full strike (yet): CUPE support staff are on legal work-to-rule since Sept. 30")
    assert "schools are open" in line and "Monday, Oct. 7" in line


@pytest.mark.parametrize("text", ["est-ce qu'il y a une grève en ce moment?", "sont-ils en grève?"])
def test_is_there_a_strike_now_in_french(say, text):
    line = first(say, text, at(10, 3))
    assert line.startswith("Pas une grève générale (pas encore)")
    assert "grève du zèle" in line and "lundi 7 octobre" in line


def test_is_there_a_strike_now_follows_the_news_of_its_time(say):
    assert first(say, "is there a strike right now", at(9, 27)).startswith("Not yet: CUPE support staff plan")
    assert first(say, "are they on strike", at(10, 1)).startswith("Not a full strike: CUPE support staff are on")
    assert first(say, "is there a strike right now", at(9, 10)).startswith("No, not yet")


@pytest.mark.parametrize(("text", "group"), [
    ("are EAs on strike too?", "Education assistants (EAs)"),
    ("is the janitor striking", "School custodians"),
    ("are ECEs on strike", "Early childhood educators (ECEs)"),
    ("is the school secretary on strike?", "School office staff"),
    ("is the librarian striking", "School library workers"),
])
def test_a_group_on_strike_is_in_the_job_action_but_still_at_work(say, text, group):
    line = first(say, text, at(10, 3))
    assert line.startswith(f"{group} are part of CUPE's job action")
    assert "still at work" in line and "walk out if the full strike starts Monday, Oct. 7" in line


def test_a_group_before_the_full_strike_notice_keeps_working_under_work_to_rule(say):
    line = first(say, "are the custodians on strike", at(10, 1))
    assert "work-to-rule from Monday, Sept. 30, not a walkout" in line
    assert "no job action has started" in first(say, "are the custodians on strike", at(9, 20))


def test_a_group_on_strike_in_french(say):
    line = first(say, "les concierges sont-ils en grève?", at(10, 3))
    assert line.startswith("Les concierges des écoles participent aux moyens de pression")
    assert "au travail" in line and "lundi 7 octobre" in line


@pytest.mark.parametrize("text", ["my son has autism and relies on his EA, what happens on monday?",
                                  "my daughter has an EA, is she working monday"])
def test_my_childs_ea_this_week_yes_and_what_a_full_strike_would_mean(say, text):
    line = first(say, text, at(10, 3))
    assert line.startswith("This week, yes: under work-to-rule education assistants keep working")


@pytest.mark.parametrize("text", ["ma fille a besoin de son aide-enseignante, sera-t-elle là?",
                                  "mon gars est autiste, son AE va tu être là lundi"])
def test_my_childs_ea_in_french(say, text):
    assert first(say, text, at(10, 3)).startswith("Cette semaine, oui : pendant la grève du zèle")


def test_a_pronoun_question_is_not_answered_by_a_card_about_one_group(say):
    for text in ("are they on strike", "are they on strike today?"):
        line = first(say, text, at(10, 3))
        assert "ECE" not in line and "early childhood" not in line.lower() and "EAs" not in line


def test_a_card_about_one_group_still_answers_its_other_names(say):
    assert first(say, "are the caretakers on strike", at(10, 3)).startswith("School custodians")
    assert first(say, "are early childhood educators on strike", at(10, 3)).startswith("Early childhood educators")


@pytest.mark.parametrize(("text", "lead"), [
    ("how do I get updates", "Official updates come from your school board's website"),
    ("comment avoir les nouvelles?", "Les mises à jour officielles viennent du site Web de votre conseil"),
])
def test_how_to_get_updates_names_the_boards_website_and_the_alerts(say, text, lead):
    line = first(say, text, at(10, 3))
    assert line.startswith(lead) and "/subscribe" in line
