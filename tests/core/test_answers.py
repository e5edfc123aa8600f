"""What the bot says: specific, honest about what is unknown, sourced, and never from the future."""

from datetime import date, datetime

from bot import timeline_answers
from knowledge.model import Status
from tests.conftest import THURSDAY, TORONTO, message


def at(year, month, day, hour=9):
    return datetime(year, month, day, hour, tzinfo=TORONTO)


def test_peel_monday_is_contingency_not_open(say):
    reply = say("is school open monday in peel")
    assert "Monday, October 7" in reply
    assert "contingency plan" in reply
    assert "child care" in reply
    assert "Source: 2019-10-02-full-strike-notice-talks-friday.txt" in reply
    assert "as of Oct 2, 2019, 8:00 p.m." in reply
    assert ": open" not in reply


def test_tdsb_during_work_to_rule_is_open_with_reduced_services(say):
    reply = say("is tdsb open tomorrow")
    assert "TDSB, tomorrow, Friday, October 4: open, with some services reduced" in reply
    assert "2019-09-29-work-to-rule-begins-monday.txt" in reply


def test_weekend_answers_with_next_school_day(say):
    reply = say("is school open saturday in peel")
    assert "Saturday, October 5 is on the weekend: no school." in reply
    assert "Monday, October 7" in reply.split("\n")[1]  # the next school day's status follows
    assert "contingency plan" in reply


def test_no_leak_of_later_news(bot):
    # On Oct 1 the full-strike notice (published Oct 2) was not out yet.
    reply = bot.handle(message("is peel open monday", at=at(2019, 10, 1)))[0].text
    assert "contingency" not in reply
    assert "2019-10-02" not in reply
    # And a week earlier the work-to-rule article (Sept 29) was not out either.
    dates = bot.handle(message("when does work to rule start", at=at(2019, 9, 25)))[0].text
    assert "2019-09-29-work-to-rule-begins-monday.txt" not in dates


def test_a_newer_status_wins(bot, store):
    store.put_status(Status(
        id="pdsb-update", board="pdsb", start=date(2019, 10, 7), until=None, status="open",
        summary="Peel says all schools will stay open on Monday.", source="Peel staff update",
        published=at(2019, 10, 3, 8), author="test:staff",
    ))
    reply = bot.handle(message("is peel open monday", at=at(2019, 10, 3, 10)))[0].text
    assert "Peel DSB, Monday, October 7: open." in reply
    assert "Source: Peel staff update, as of Oct 3, 2019, 8:00 a.m." in reply
    # Before it was published, the older answer still stands.
    earlier = bot.handle(message("is peel open monday", at=at(2019, 10, 3, 7)))[0].text
    assert "contingency" in earlier


def test_withdrawn_services_lists_workers_and_sources(say):
    reply = say("what services have been withdrawn")
    assert "custodians" in reply
    assert "Sources:" not in reply  # one "source?" away (issue 20: short replies)
    assert say("source?").startswith("Sources: ")


def test_out_of_scope_says_no_information(say):
    reply = say("are the school buses running on monday")
    first = reply.split("\n")[0]
    assert first.startswith(("I have no information on", "I don't know: the reports don't mention"))
    assert "transportation" in first


def test_unknown_offers_help(say):
    reply = say("who won the hockey game")
    assert "not sure what you're asking" in reply or "no information" in reply


def test_help_lists_examples_and_commands(say):
    reply = say("/help")
    for part in ("/board", "/status", "/subscribe", "is school open monday"):
        assert part in reply


def test_every_knowledge_answer_names_its_source_when_asked(say):
    """A news file's name is not in the answer a parent reads on a phone, but "source?" gives it at once."""
    for question in ("why are they striking", "any news on the talks", "who is on strike",
                     "when could a full strike start", "do i need child care", "what does work to rule mean"):
        assert "Source" not in say(question), question
        cited = say("source?")
        assert cited.startswith("Source") and ".txt" in cited and "as of" in cited, question


def test_a_status_answer_keeps_its_source_line(say):
    assert "\nSource: 2019-10-02-full-strike-notice-talks-friday.txt" in say("is school open monday in peel?")


# ---------------------------------------------------------------- answer first (issue 9)
def test_eas_question_says_they_are_in_the_job_action_but_still_at_work(say):
    reply = say("are EAs on strike too?")
    first = reply.split("\n")[0]
    assert first.startswith("Education assistants (EAs) are part of CUPE's job action")
    assert "still at work" in first and "Monday, Oct. 7" in first
    assert "Source: " not in reply and "where did you get that" and say("where did you get that").startswith("Source: ")


def test_is_the_strike_over_says_no_and_what_is_next(say):
    first = say("is the strike over?").split("\n")[0]
    assert first.startswith("No")
    assert "Oct. 7" in first[:160]


def test_the_answer_card_is_the_one_of_the_question_time(bot):
    # On Sept 30 the Oct 2 notice was not out: the older card answers, nothing leaks.
    reply = bot.handle(message("is the strike over?", at=at(2019, 9, 30)))[0].text
    assert reply.startswith("No")
    assert "2019-10-02" not in reply and "Oct. 7" not in reply


def test_a_card_for_the_users_board_wins_over_the_general_one(say):
    reply = say("will tdsb close if there is a full strike?")
    assert "TDSB" in reply or "Toronto District" in reply
    assert "closures are possible" not in reply  # Peel's and York's words are not TDSB's


def test_are_a_boards_schools_affected_points_to_that_boards_website(say):
    reply = say("are durham schools affected by the strike?")
    assert reply.startswith("Durham DSB, today, Thursday, October 3: open, with some services reduced; its word "
                            "isn't in my reports, check https://www.ddsb.ca")  # the board's day, then who takes part
    assert "55,000" in reply
    assert "website" not in say("who is on strike?")


def test_a_question_on_an_earlier_date_gets_that_date_not_the_latest_news(store):
    reply = timeline_answers.strike_dates(store.knowledge(), THURSDAY, "when did work to rule start?")
    assert reply.startswith("Mon Sep 30: Work-to-rule starts")


def test_a_general_card_asked_for_a_board_adds_that_boards_own_word_or_website(say):
    updates = say("where can I find updates for durham")
    assert updates.startswith("Durham DSB posts its official updates on its website: https://www.ddsb.ca")
    care = say("la garderie du CECCE est-elle ouverte demain?").split("\n")
    assert care[-1] == "Consultez le site Web du conseil : https://www.ecolecatholique.ca"  # last: no source line
    peel = say("is the before school program open monday in peel?")
    assert "Peel DSB, Monday, October 7: not decided yet" in peel


def test_no_board_status_gives_the_province_picture_and_asks_the_board_in_one_reply(bot):
    replies = bot.handle(message("is school open monday?"))
    assert len(replies) == 1
    text = replies[0].text
    assert "province-wide" in text.split("\n")[0]
    assert "Peel DSB" in text and "not decided yet: closures are possible" in text
    first, second = text.split("\n")[:2]
    assert first == "Monday, October 7, province-wide: not confirmed; it depends on the board. Which board is your child's?"
    assert "full strike" in second  # why, within a phone's preview
    assert "Source: 2019-10-02-full-strike-notice-talks-friday.txt" in text


def test_one_item_asked_about_not_the_whole_list(say):
    one = say("are the custodians still cutting the grass")
    whole = say("what services stopped?")
    assert "grass" in one.split("\n")[0]
    assert len(one) < len(whole) / 2
    assert "clerical" in whole and "overtime" in whole  # the list when the list is asked for


def test_exact_status_words_survive_the_short_shape(say):
    first = say("is school open monday in peel").split("\n")[0]
    assert first == "Peel DSB, Monday, October 7: not decided yet: closures are possible."


def test_mixed_question_answers_school_first_then_one_line_on_the_other_topic(say):
    say("/board tdsb")
    reply = say("should he take the bus Monday or is school cancelled?")
    lines = reply.split("\n")
    assert lines[0].startswith("TDSB, Monday, October 7")
    assert "bus" in lines[-1] and "no information" in lines[-1]
    assert sum("bus" in line for line in lines) == 1


def test_a_newer_event_comes_before_an_older_card(bot, store):
    from knowledge.model import TimelineEvent

    store.put_event(TimelineEvent(
        id="deal-test", kind="deal", day=date(2019, 10, 3), text="A tentative deal was reached.",
        source="Province-wide update", published=at(2019, 10, 3, 8), author="test:staff",
    ))
    reply = bot.handle(message("is the strike over?", at=at(2019, 10, 3, 10)))[0].text
    assert reply.startswith("Latest: Thu Oct 3: A tentative deal was reached.")


def test_a_newer_event_of_another_kind_does_not_overtake_a_card(bot, store):
    """A board closing its schools says nothing about whether there is a deal."""
    from knowledge.model import TimelineEvent

    store.put_event(TimelineEvent(
        id="closed-test", kind="other", day=date(2019, 10, 3), text="Some boards moved classes online.",
        source="Province-wide update", published=at(2019, 10, 3, 8), author="test:staff",
    ))
    reply = bot.handle(message("is there a deal yet?", at=at(2019, 10, 3, 10)))[0].text
    assert not reply.startswith("Latest:") and "online" not in reply


def test_eval_checks_reply_words_up_front_and_follow_ups(bot):
    from bot.evaluation import evaluate

    now = "2019-10-03T09:00:00-04:00"
    rows = [
        {"text": "are EAs on strike too?", "now": now, "intent": "who_is_affected", "reply_has": ["YES", "éducation|education"]},
        {"text": "what about tuesday", "now": now, "intent": "school_status", "context": ["is school open monday in peel"],
         "board": "pdsb", "date": "2019-10-08", "reply_has": ["tuesday, october 8"], "lang": "en"},
        {"text": "is tdsb open monday", "now": now, "intent": "school_status", "reply_has": ["a word never said"]},
        {"text": "hi", "now": now, "intent": "help"},
    ]
    report = evaluate(bot, rows)
    assert [r.has_words() for r in report.results] == [True, True, False, None]
    assert report.reply_words() == (2 / 3, 3)
    assert report.results[1].board == "pdsb"  # the earlier message set the thread
    text = report.render()
    assert "reply words:" in text and "answer up front:" in text and "median reply:" in text
    assert "intent accuracy [en]: 1.000 (1)" in text


def test_a_fact_about_another_board_does_not_answer_for_this_one(say):
    """A TDSB parent asking about care is not told what Peel asked its parents first."""
    reply = say("my daughter is at a TDSB school in scarborough, do i need to find care for monday?")
    assert not reply.startswith("The Peel District School Board")
    assert "TDSB, Monday, October 7" in reply


def test_news_that_does_not_speak_to_the_question_does_not_overtake_its_card(say):
    """'How did the vote go?' is answered by the vote, not by the newer 'talks resume Friday'."""
    assert say("how did the vote go").startswith("93% of CUPE members voted in favour")


def test_a_board_that_said_nothing_gets_its_website_in_the_first_line(say):
    """The province-wide status answers, and the first line says the board's own word is to come, and where."""
    first, second, *_ = say("is hamilton open monday?").split("\n")
    assert first == "HWDSB, Monday, October 7: not confirmed; its word isn't in my reports, check https://www.hwdsb.on.ca"
    assert "strike" in second  # why it is not confirmed, next
    french = say("l'école est-elle ouverte lundi au hwdsb?").split("\n")[0]
    assert french.endswith("lundi 7 octobre : non confirmé; rien du conseil dans mes sources, consultez https://www.hwdsb.on.ca")


def test_a_strike_to_come_is_said_right_after_an_open_day(say):
    """'Open tomorrow' is followed by the strike that could start days later, before the background."""
    for question in ("is tdsb open tomorrow", "is school open tomorrow in durham"):
        lines = say(question).split("\n")
        assert ": open, with some services reduced" in lines[0]
        assert lines[1] == "Note: A full strike could begin on Monday, Oct. 7, if no deal is reached."


def test_a_status_still_standing_after_newer_reports_is_not_called_old_news(bot):
    """Friday's status is from Sept. 29, but the Oct. 2 reports are the latest news: no 'my latest news is from ...'."""
    reply = bot.handle(message("r schools closed tomorrow in brampton", at=at(2019, 10, 3)))[0].text
    assert reply.startswith("Peel DSB, tomorrow, Friday, October 4: open")
    assert "Monday, Oct. 7" in reply.split("\n")[1]
    later = bot.handle(message("is school open friday in peel?", at=at(2019, 10, 7, 7)))[0].text
    assert later.startswith("My latest news is from Oct 2, 2019, 5 days ago: ")  # the newest news is old: said first


def test_a_boards_undecided_status_says_the_strike_and_what_to_do_first(say):
    """The board's own news leads with its condition (a strike) and the parent's next step, not who said it."""
    peel = say("is peel open monday").split("\n")[1]
    assert peel.startswith("If a strike closes schools, Peel asked parents to have backup child care ready")
    york = say("is york region open monday").split("\n")[1]
    assert york.startswith("If a strike goes ahead, York Region's public board may close schools")
    tdsb = say("is tdsb open monday").split("\n")[1]
    assert tdsb == "If a strike goes ahead, TDSB has not decided; it told families to watch its website over the weekend."


def test_where_a_board_posts_news_names_its_website_and_only_its_own_news(say):
    first, second, *_ = say("how will TCDSB tell parents if something changes").split("\n")
    assert first == "TCDSB posts its official updates on its website: https://www.tcdsb.org"
    assert "Toronto District School Board" not in second  # another board's letter is left out


def test_first_sentences_of_fixed_replies_answer_the_request(say):
    assert say("sign me up for alerts").startswith("I'll send you alerts when there is news. Which board's updates")
    assert say("what can this bot do").startswith("I answer parents' questions about school, from news reports on the 2019 ")
    assert say("how long is the strike going to last").startswith("I don't know: none of the reports says how long")
    workers = say("who is cupe exactly, like who works for them at our school?").split("\n")[0]
    assert "custodians" in workers and "office" in workers  # who they are, not "teachers are not part of it"


def test_what_workers_stopped_names_the_tasks_first(say):
    """'The support staff' names no service: the examples of stopped tasks, not three picked by the word 'staff'."""
    first = say("what did the support staff stop doing?").split("\n")[0]
    assert "cleaning hallways" in first and "garbage" in first
    card = say("what have they stopped doing").split("\n")[0]
    assert card.startswith("Since Sept. 30, custodians no longer clean hallways or empty the garbage cans")


def test_talking_meets_talks_and_the_newest_news_on_the_talks_answers(say):
    first = say("are cupe and the province talking?").split("\n")[0]
    assert "Friday" in first


def test_when_can_they_strike_is_answered_with_the_date_to_come(bot):
    """A 'when can ...' question: the event to come it speaks to leads, not an earlier one sharing more words."""
    ahead = bot.handle(message("when can cupe legally strike?", at=at(2019, 9, 27)))[0].text
    assert ahead.startswith("Mon Sep 30: ")
    before = bot.handle(message("when did cupe ask for the no-board report?", at=at(2019, 9, 27)))[0].text
    assert before.startswith("Thu Sep 5: ")


def test_will_all_schools_close_is_not_answered_yes(say):
    first = say("if the strike happens are all schools closing or just some?").split("\n")[0]
    assert not first.startswith("Yes")
    assert "strike" in first and "board" in first


def test_asked_for_a_board_what_that_board_said_comes_first(say):
    say("is brampton closed monday")
    first = say("ugh ok so what do i do with my kids then, i cant take off work").split("\n")[0]
    assert first.startswith("The Peel District School Board asked parents to start making alternate child care plans")


def test_sick_days_questions_get_the_issue_and_the_figure_question_gets_the_correction(say):
    assert say("whats the deal with the sick days").startswith("The government wants fewer sick days:")
    assert say("is the 35 million a day true").startswith("Not per school day:")
