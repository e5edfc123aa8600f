"""What the bot says: specific, honest about what is unknown, sourced, and never from the future."""

from datetime import date, datetime

from knowledge.model import Status
from tests.conftest import TORONTO, message


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
    assert "Toronto District School Board, tomorrow, Friday, October 4: open, with some services reduced" in reply
    assert "2019-09-29-work-to-rule-begins-monday.txt" in reply


def test_weekend_answers_with_next_school_day(say):
    reply = say("is school open saturday in peel")
    assert "Saturday, October 5 is on the weekend" in reply
    assert "The next school day is Monday, October 7" in reply
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
    assert "Peel District School Board, Monday, October 7: open." in reply
    assert "Source: Peel staff update, as of Oct 3, 2019, 8:00 a.m." in reply
    # Before it was published, the older answer still stands.
    earlier = bot.handle(message("is peel open monday", at=at(2019, 10, 3, 7)))[0].text
    assert "contingency" in earlier


def test_withdrawn_services_lists_workers_and_sources(say):
    reply = say("what services have been withdrawn")
    assert "custodians" in reply
    assert "Sources:" in reply


def test_out_of_scope_says_no_information(say):
    reply = say("are the school buses running on monday")
    assert reply.startswith("I have no information on")
    assert "transportation" in reply


def test_unknown_offers_help(say):
    reply = say("who won the hockey game")
    assert "not sure what you're asking" in reply or "no information" in reply


def test_help_lists_examples_and_commands(say):
    reply = say("/help")
    for part in ("/board", "/status", "/subscribe", "is school open monday"):
        assert part in reply


def test_every_knowledge_answer_names_a_source(say):
    for question in ("why are they striking", "any news on the talks", "who is on strike",
                     "when could a full strike start", "do i need child care", "what does work to rule mean"):
        assert "Source" in say(question), question
