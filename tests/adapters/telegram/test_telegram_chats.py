"""Private chats and groups through python-telegram-bot and the fake Bot API: who is answered, and how."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime

import pytest
from telegram_support import GROUP, PARENT, answered

from adapters.telegram import MAX_CHARS
from bot.commands import menu
from bot.messages import Incoming
from bot.text import plain, split_text
from knowledge.model import Status
from tests.fakes.telegram import ANONYMOUS_ADMIN_ID, BOT_USERNAME


# ---------------------------------------------------------------- private chat
async def test_private_question_and_answer(fake, bot, tg_settings, running):
    async with running(bot, tg_settings, fake):
        update = fake.private("is school open monday in peel?", user_id=PARENT, name="Dana")
        texts = await answered(fake, update, PARENT)
        follow = fake.private("what services stopped?", user_id=PARENT, name="Dana")
        await answered(fake, follow, PARENT, 2)
    assert "Peel DSB, Monday, October 7" in texts[0]
    params = fake.sent(PARENT)[0]
    assert "parse_mode" not in params  # plain text, always
    assert "reply_parameters" not in params  # no quoting in a private chat
    assert params["link_preview_options"] == {"is_disabled": True}
    assert fake.sent_texts(PARENT)[1].strip()


async def test_startup_registers_the_menu_in_both_languages_and_keeps_pending_updates(fake, bot, tg_settings, running):
    waiting = fake.private("/start", user_id=PARENT)  # arrived before the bot started
    async with running(bot, tg_settings, fake):
        await answered(fake, waiting, PARENT)
    calls = fake.calls_to("setMyCommands")
    by_language = {c.get("language_code"): [(x["command"], x["description"]) for x in c["commands"]] for c in calls}
    assert by_language == {None: menu("en"), "fr": menu("fr")}
    assert by_language[None] != by_language["fr"]
    assert all(p.get("drop_pending_updates") in (None, False) for p in fake.calls_to("deleteWebhook"))
    assert fake.calls_to("getUpdates")[0].get("allowed_updates") == ["message", "my_chat_member", "callback_query"]


@pytest.mark.parametrize("command, expected", [
    ("/start", "I answer parents' questions"),
    ("/help", "Commands:"),
    ("/board peel", "Got it: your board is Peel District School Board"),
    ("/board", "You haven't set a board yet"),
    ("/status peel", "Peel DSB, today, Thursday, October 3"),
    ("/status", "Which board is your child's?"),
    ("/subscribe peel", "You will now get official updates for Peel District School Board"),
    ("/unsubscribe", "There were no updates to stop"),
    ("/whoami", f"You are telegram user {PARENT}"),
    (f"/help@{BOT_USERNAME}", "Commands:"),
])
async def test_each_command_in_private(fake, bot, tg_settings, running, command, expected):
    async with running(bot, tg_settings, fake):
        texts = await answered(fake, fake.private(command, user_id=PARENT), PARENT)
    assert expected in texts[0]
    assert fake.calls_to("getChatMember") == []  # a private chat never needs the admin check


async def test_commands_change_the_store(fake, bot, store, tg_settings, running):
    async with running(bot, tg_settings, fake):
        await answered(fake, fake.private("/board tdsb", user_id=PARENT), PARENT, 1)
        texts = await answered(fake, fake.private("/status", user_id=PARENT), PARENT, 2)
        assert "Toronto District School Board" in texts[1]
        await answered(fake, fake.private("/subscribe", user_id=PARENT), PARENT, 3)
        assert store.subscriptions_of("telegram", str(PARENT)) == ["tdsb"]
        texts = await answered(fake, fake.private("/unsubscribe", user_id=PARENT), PARENT, 4)
        assert "no more updates for Toronto District School Board" in texts[3]
    assert store.subscriptions_of("telegram", str(PARENT)) == []
    assert store.get_user("telegram", str(PARENT))["board"] == "tdsb"


# --------------------------------------------------------------------- groups
async def test_group_message_not_addressed_gets_no_reply(fake, bot, tg_settings, running):
    async with running(bot, tg_settings, fake):
        chatter = [
            fake.group("is school open monday in peel?"),
            fake.group("/status@some_other_bot peel"),  # a command for another bot
            fake.group("thanks everyone, I will subscribe to the newsletter"),
        ]
        for update in chatter:
            await fake.wait_confirmed(update)
    assert fake.sent(GROUP) == []
    assert fake.calls_to("getChatMember") == []


async def test_group_mention_command_and_reply_are_answered(fake, bot, tg_settings, running):
    async with running(bot, tg_settings, fake):
        chatter = fake.group("anyone know if school is open monday in peel?", user_id=2002, name="Alex")
        await fake.wait_confirmed(chatter)
        assert fake.sent(GROUP) == []  # not addressed: the bot stays quiet
        asked = fake.group(f"@{BOT_USERNAME} is school open monday in peel?", user_id=2001, name="Sam")
        texts = await answered(fake, asked, GROUP)
        assert "Peel DSB, Monday, October 7" in texts[0]
        first = fake.sent(GROUP)[0]
        assert first["reply_parameters"]["message_id"] == asked["message"]["message_id"]
        assert "parse_mode" not in first

        bots_answer = fake.last_sent_message(GROUP)
        follow = fake.group("and what services stopped?", user_id=2002, name="Alex", reply_to=bots_answer)
        await answered(fake, follow, GROUP, 2)

        command = fake.group(f"/status@{BOT_USERNAME} tdsb", user_id=2001, name="Sam")
        texts = await answered(fake, command, GROUP, 3)
        assert "Toronto District School Board" in texts[2]
        plain_command = fake.group("/help", user_id=2003, name="Kim")
        await answered(fake, plain_command, GROUP, 4)
    assert fake.calls_to("getChatMember") == []  # none of these manage the group


async def test_group_subscription_needs_a_group_admin(fake, bot, store, tg_settings, running):
    async with running(bot, tg_settings, fake):
        texts = await answered(fake, fake.group("/subscribe peel", user_id=2001), GROUP)
        assert "Only this group's admins" in texts[0]
        assert store.subscriptions_of("telegram", str(GROUP)) == []

        fake.set_member(GROUP, 2009, "administrator")
        texts = await answered(fake, fake.group("/subscribe peel", user_id=2009), GROUP, 2)
        assert "This group will now get official updates for Peel District School Board" in texts[1]
        assert store.subscriptions_of("telegram", str(GROUP)) == ["pdsb"]

        texts = await answered(fake, fake.group("/unsubscribe", user_id=2001), GROUP, 3)
        assert "Only this group's admins" in texts[2]

        # An anonymous admin posts as the group itself: no need to ask Telegram.
        anonymous = fake.group("/unsubscribe", user_id=ANONYMOUS_ADMIN_ID, sender_chat=fake.chat(GROUP))
        texts = await answered(fake, anonymous, GROUP, 4)
        assert "no more updates" in texts[3]
    asked = [(str(p["chat_id"]), str(p["user_id"])) for p in fake.calls_to("getChatMember")]
    assert asked == [(str(GROUP), "2001"), (str(GROUP), "2009"), (str(GROUP), "2001")]
    assert store.subscriptions_of("telegram", str(GROUP)) == []


async def test_the_admin_check_follows_the_core_not_keywords(fake, bot, tg_settings, running):
    """Asked when the core reads a subscription request, in any wording; not for a question that mentions one."""
    async with running(bot, tg_settings, fake):
        question = fake.group(f"@{BOT_USERNAME} is school open monday in peel? I subscribed last week", user_id=2001)
        await answered(fake, question, GROUP)
        assert fake.calls_to("getChatMember") == []
        request = fake.group(f"@{BOT_USERNAME} alerts for peel please", user_id=2001)
        await answered(fake, request, GROUP, 2)
    incoming = Incoming("telegram", str(GROUP), "2001", "alerts for peel please",
                        fake.clock, "group", True)
    assert bot.needs_group_admin(incoming)  # what the core says, and so what the adapter asked
    assert [(str(p["chat_id"]), str(p["user_id"])) for p in fake.calls_to("getChatMember")] == [(str(GROUP), "2001")]


# ------------------------------------------------------------- long answers
async def test_a_5000_character_answer_is_split_in_two(fake, bot, store, tg_settings, running):
    sentence = "Buses run on the usual schedule but the office closes at noon for staff meetings. "
    store.put_status(Status(  # a board notice as long as some real ones
        id="peel-long-notice", board="pdsb", start=date(2019, 10, 3), until=date(2019, 10, 3), status="open",
        summary=(sentence * 60).strip(), source="peel-notice.txt",
        published=datetime(2019, 10, 2, 20, 0, tzinfo=UTC),
    ))
    async with running(bot, tg_settings, fake):
        texts = await answered(fake, fake.private("/status peel", user_id=PARENT), PARENT, 2)
    # What the core says to the same question (another user, same moment):
    replies = bot.handle(Incoming("telegram", "55", "55", "/status peel", fake.clock))
    full = plain(replies[0].text)
    assert len(replies) == 1 and 5000 < len(full) < 2 * MAX_CHARS
    assert len(texts) == 2 and all(len(t) <= MAX_CHARS for t in texts)
    assert texts == split_text(full, MAX_CHARS)
    assert texts[0].endswith(".") and full.startswith(texts[0]) and full.endswith(texts[1])  # cut between sentences


# --------------------------------------------------------- odd and bad input
async def test_malformed_updates_are_handled_without_error(fake, bot, tg_settings, running, caplog):
    caplog.set_level(logging.WARNING)
    async with running(bot, tg_settings, fake):
        odd = [
            fake.sticker(chat_id=PARENT, user_id=PARENT),  # private sticker: a short hint
            fake.sticker(chat_id=GROUP, user_id=2001),  # group sticker: nothing
            fake.edited("is school open monday in peel?", chat_id=PARENT, user_id=PARENT),
            fake.channel_post("Schools are closed!"),
            fake.channel_post(None),
            fake.private(None, user_id=PARENT),  # no text, no content at all
            fake.group(None, new_chat_members=[fake.user(3001)]),  # service message
            fake.add_update({"message_reaction": {"chat": fake.chat(PARENT), "message_id": 1,
                                                  "date": 1570107600, "old_reaction": [], "new_reaction": []}}),
            fake.add_update({"some_future_update_kind": {"x": 1}}),
        ]
        for update in odd:
            await fake.wait_confirmed(update)
        after = fake.private("/help", user_id=PARENT)  # still alive and answering
        await answered(fake, after, PARENT, 2)
    texts = fake.sent_texts(PARENT)
    assert len(texts) == 2 and "Send me a question" in texts[0] and "Commands:" in texts[1]
    assert fake.sent(GROUP) == [] and fake.sent(-1009876543210) == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_crash_in_one_update_is_logged_and_the_bot_goes_on(fake, bot, tg_settings, running, caplog):
    # The API answers getChatMember with a result that is not a ChatMember: the library raises.
    fake.fail("getChatMember", 200, result={"not": "a member"})
    async with running(bot, tg_settings, fake):
        broken = fake.group("/subscribe peel", user_id=2001)
        await fake.wait_confirmed(broken)
        fine = fake.private("/whoami", user_id=PARENT)
        texts = await answered(fake, fine, PARENT)
    assert f"You are telegram user {PARENT}" in texts[0]
    assert fake.sent(GROUP) == []
    crash_logs = [r for r in caplog.records if r.levelno >= logging.ERROR and str(broken["update_id"]) in r.getMessage()]
    assert crash_logs and crash_logs[0].exc_info


async def test_user_blocking_the_bot_marks_subscriptions_inactive(fake, bot, store, tg_settings, running):
    async with running(bot, tg_settings, fake):
        await answered(fake, fake.private("/subscribe all", user_id=PARENT), PARENT)
        assert store.subscriptions_of("telegram", str(PARENT)) == ["all"]
        blocked = fake.membership("kicked", chat_id=PARENT, user_id=PARENT)
        await fake.wait_confirmed(blocked)
    assert store.subscriptions_of("telegram", str(PARENT)) == []


async def test_a_group_upgraded_to_a_supergroup_keeps_its_subscriptions(fake, bot, store, tg_settings, running):
    """The migration service message moves the group's subscriptions to its new id."""
    old, new = "-4001", "-1004001"
    store.subscribe("telegram", old, "tdsb", "group", "1")
    async with running(bot, tg_settings, fake):
        update = fake.add_update({"message": fake.message(None, chat_id=int(old), user_id=2001, chat_type="group",
                                                          migrate_to_chat_id=int(new))})
        await fake.wait_confirmed(update)
    assert store.subscriptions_of("telegram", old) == []
    assert store.subscriptions_of("telegram", new) == ["tdsb"]
