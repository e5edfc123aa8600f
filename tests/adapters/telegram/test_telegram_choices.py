"""Choice buttons on Telegram: an offered choice comes with an inline keyboard; a press is the user's pick."""

from __future__ import annotations

from telegram_support import GROUP, PARENT, answered, free_port

from adapters.choices import NOT_YOURS
from adapters.telegram.choices import MAX_LABEL, keyboard, label, parse
from bot.messages import Reply
from tests.conftest import CLOSE_QUESTION, message, two_close_cards


def _logged(store) -> list[str]:
    store.flush_questions()
    return [row[0] for row in store.conn.execute("SELECT text FROM question_log")]


async def test_a_choice_gets_buttons_and_a_press_is_answered_and_logged(fake, bot, store, tg_settings, running):
    two_close_cards(store)
    async with running(bot, tg_settings, fake):
        [offer] = await answered(fake, fake.private(CLOSE_QUESTION, user_id=PARENT), PARENT)
        assert offer.startswith("Do you mean:\n1. Question about ea ")
        buttons = fake.sent(PARENT)[0]["reply_markup"]["inline_keyboard"]
        assert [[b["callback_data"] for b in row] for row in buttons] == [[f"choice:1:{PARENT}"], [f"choice:2:{PARENT}"]]
        assert [row[0]["text"] for row in buttons] == [line for line in offer.splitlines()[1:3]]
        assert offer.endswith("Tap one, or send 1 or 2.")  # the buttons are there to tap

        press = fake.click(PARENT, 2)
        texts = await answered(fake, press, PARENT, count=2)
    cards = {c.question: c for c in store.knowledge().cards}
    picked = cards[buttons[1][0]["text"].removeprefix("2. ")]
    assert texts[1].startswith(picked.answer)  # the second card's answer, to the same chat
    assert press["callback_query"]["id"] in fake.answered_clicks  # the spinner stopped
    assert "reply_markup" not in fake.last_sent_message(PARENT)
    assert not fake.sent_messages[0].get("reply_markup")  # the buttons were taken off the offer
    assert f"[picked 2: {picked.id}] {CLOSE_QUESTION}" in _logged(store)
    print("\n" + fake.transcript(PARENT))


async def test_in_a_group_the_press_answers_the_asker_there(fake, bot, store, tg_settings, running):
    two_close_cards(store)
    async with running(bot, tg_settings, fake):
        asked = fake.group(f"@{fake.username} {CLOSE_QUESTION}", user_id=2001)
        [offer] = await answered(fake, asked, GROUP)
        buttons = fake.sent(GROUP)[0]["reply_markup"]["inline_keyboard"]
        stranger = fake.click(GROUP, 1, user_id=2002)  # someone else's choice: told so, nothing sent
        await fake.wait_confirmed(stranger)
        assert len(fake.sent(GROUP)) == 1 and fake.sent_messages[-1].get("reply_markup")  # buttons still there
        press = fake.click(GROUP, 1, user_id=2001)
        texts = await answered(fake, press, GROUP, count=2)
    told = fake.calls_to("answerCallbackQuery")[0]
    assert told["callback_query_id"] == stranger["callback_query"]["id"] and told["text"] == NOT_YOURS
    cards = {c.question: c for c in store.knowledge().cards}
    assert texts[1].startswith(cards[buttons[0][0]["text"].removeprefix("1. ")].answer)
    assert offer.startswith("Do you mean:") and press["callback_query"]["id"] in fake.answered_clicks
    assert f"[picked 1: {cards[buttons[0][0]['text'].removeprefix('1. ')].id}] {CLOSE_QUESTION}" in _logged(store)


async def test_a_french_speaking_stranger_is_told_in_french(fake, bot, store, tg_settings, running):
    two_close_cards(store)
    bot.set_language(message("/langue fr", user="2003", platform="telegram"), "fr")
    async with running(bot, tg_settings, fake):
        asked = fake.group(f"@{fake.username} {CLOSE_QUESTION}", user_id=2001)
        await answered(fake, asked, GROUP)
        stranger = fake.click(GROUP, 1, user_id=2003)
        await fake.wait_confirmed(stranger)
    told = fake.calls_to("answerCallbackQuery")[0]
    assert told["text"] == ("Ces boutons répondent à la personne qui a posé la question. "
                            "Posez-moi la question vous-même et je vous proposerai le choix.")


def test_labels_fit_a_button_and_the_number_fits_callback_data():
    long = "Will my child with an individual education plan still get support from the EA at lunch and recess?"
    markup = keyboard(Reply("Do you mean: ...", "1", meta={"choices": ["a", "b"], "choice_labels": [long, "Short?"]}),
                      "1234567890123")
    first, second = (row[0] for row in markup["inline_keyboard"])
    assert len(first["text"]) == MAX_LABEL and first["text"].startswith("1. Will my child") and first["text"].endswith("…")
    assert second == {"text": "2. Short?", "callback_data": "choice:2:1234567890123"}
    assert all(len(b["callback_data"].encode()) <= 64 for b in (first, second))
    assert keyboard(Reply("Peel is open.", "1", meta={"intent": "school_status"}), "1") is None
    assert label(3, "  spaced\n out  ") == "3. spaced out"
    assert [parse(d) for d in ("choice:2:7", "choice:1:-100", "choice:0:7", "choice:2", "other:1:7", None,
                               "choice:1:" + "9" * 70)] == [(2, "7"), (1, "-100"), None, None, None, None, None]


async def test_a_press_after_a_restart_is_still_the_pick(fake, bot, store, tg_settings, running):
    two_close_cards(store)
    async with running(bot, tg_settings, fake):
        await answered(fake, fake.private(CLOSE_QUESTION, user_id=PARENT), PARENT)
    async with running(bot, tg_settings, fake):  # the buttons carry all a press needs
        texts = await answered(fake, fake.click(PARENT, 1), PARENT, count=2)
    first = {c.question: c for c in store.knowledge().cards}[texts[0].splitlines()[1].removeprefix("1. ")]
    assert texts[1].startswith(first.answer)


async def test_through_the_webhook_too(fake, bot, store, tg_settings, running):
    two_close_cards(store)
    port = free_port()
    hooked = tg_settings.replace("telegram", webhook_url=f"http://127.0.0.1:{port}/telegram-hook", webhook_port=port,
                                 webhook_secret="s3cret")
    async with running(bot, hooked, fake):
        await fake.wait_for(lambda: fake.webhook is not None, what="setWebhook")
        assert "callback_query" in fake.calls_to("setWebhook")[0]["allowed_updates"]
        asked = {"update_id": 700, "message": fake.message(CLOSE_QUESTION, chat_id=PARENT, user_id=PARENT)}
        assert await fake.deliver(asked) == 200
        await fake.wait_sent(1, PARENT)
        assert await fake.deliver(fake.click(PARENT, 2)) == 200
        texts = await fake.wait_sent(2, PARENT)
    second = {c.question: c for c in store.knowledge().cards}[texts[0].splitlines()[2].removeprefix("2. ")]
    assert texts[1].startswith(second.answer)
