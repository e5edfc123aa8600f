"""Conversations through the one entry point: memory, follow-ups, subscriptions, groups."""

from datetime import timedelta

from bot.messages import ChatKind
from tests.conftest import THURSDAY, message


def test_which_board_then_the_answer(say):
    assert "Which board is your child's?" in say("is school open monday?")
    reply = say("peel")
    assert "Peel District School Board, Monday, October 7" in reply
    assert "contingency plan" in reply
    assert "remember Peel District School Board" in reply
    # remembered for the next question
    assert "Peel District School Board for tomorrow, Friday, October 4" in say("and tomorrow?")


def test_pending_question_keeps_its_date(say):
    say("is there school on oct 8")
    assert "Tuesday, October 8" in say("york region")


def test_a_different_question_drops_the_pending_one(say):
    say("is school open monday?")
    reply = say("what does work to rule mean")
    assert "Which board" not in reply
    assert "unpaid" in reply.lower()  # what work-to-rule means
    # "tdsb" now just sets the board
    assert "your board is Toronto District School Board" in say("tdsb")


def test_pending_question_expires(bot):
    bot.handle(message("is school open monday?"))
    later = message("peel", at=THURSDAY + timedelta(hours=2))
    reply = bot.handle(later)[0].text
    assert "your board is Peel District School Board" in reply


def test_set_change_show_and_clear_board(say):
    assert "your board is Toronto District School Board" in say("/board tdsb")
    assert "Your board is Toronto District School Board (tdsb)" in say("/board")
    assert "your board is Durham District School Board" in say("change my board to durham")
    assert "no longer remember" in say("/board clear")
    assert "You haven't set a board yet" in say("/board")


def test_unknown_board_name(say):
    assert "I don't know a board called 'atlantis'" in say("/board atlantis")


def test_board_without_status_gives_website(say):
    reply = say("is school open monday in ottawa")
    assert "no confirmed information from Ottawa-Carleton District School Board" in reply
    assert "ocdsb.ca" in reply


def test_board_in_text_wins_over_remembered_board(say):
    say("/board tdsb")
    assert "Peel District School Board" in say("is peel open monday")


def test_memory_is_per_platform_and_user(say):
    say("/board tdsb", user="a")
    assert "Which board is your child's?" in say("is school open monday", user="b")
    assert "Which board is your child's?" in say("is school open monday", user="a", platform="other")


def test_subscribe_and_unsubscribe(bot, say, store):
    assert "Which board's updates do you want?" in say("/subscribe")
    assert "official updates for Peel District School Board" in say("peel")
    assert store.subscriptions_of("test", "u1") == ["pdsb"]
    assert "already get updates" in say("/subscribe peel")
    assert "official updates for all boards" in say("/subscribe all")
    assert "no more updates for" in say("/unsubscribe")
    assert store.subscriptions_of("test", "u1") == []
    assert "no updates to stop" in say("/unsubscribe")


def test_group_only_answers_when_addressed(bot):
    unaddressed = message("is school open monday in peel", chat="g1", kind=ChatKind.GROUP, addressed=False)
    assert bot.handle(unaddressed) == []
    addressed = message("is school open monday in peel", chat="g1", kind=ChatKind.GROUP, addressed=True)
    replies = bot.handle(addressed)
    assert replies and replies[0].chat_id == "g1"


def test_only_group_admins_subscribe_a_group(bot, store):
    def group(text, admin):
        return bot.handle(message(text, chat="g1", kind=ChatKind.GROUP, group_admin=admin))[0].text

    assert "Only this group's admins" in group("/subscribe tdsb", admin=False)
    assert store.subscriptions_of("test", "g1") == []
    assert "This group will now get official updates" in group("/subscribe tdsb", admin=True)
    assert store.subscriptions_of("test", "g1") == ["tdsb"]


def test_channel_posts_get_no_reply(bot):
    assert bot.handle(message("is school open", kind=ChatKind.CHANNEL)) == []


def test_whoami(say):
    assert "You are test user u1" in say("/whoami")
