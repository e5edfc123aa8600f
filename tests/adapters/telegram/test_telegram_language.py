"""The Telegram app's language (from_user.language_code) reaches the core as a first guess."""

from __future__ import annotations

from telegram_support import PARENT, answered

OTHER_PARENT = 1002


def sender(user_id: int, language_code: str | None) -> dict:
    user = {"id": user_id, "is_bot": False, "first_name": f"Parent{user_id}"}
    if language_code is not None:
        user["language_code"] = language_code
    return {"from": user}


async def test_a_french_app_makes_a_city_mean_its_french_board(fake, bot, tg_settings, running):
    # "Ottawa" alone says nothing about the language: the app's language decides.
    french = fake.private("Ottawa", user_id=PARENT, **sender(PARENT, "fr"))
    english = fake.private("Ottawa", user_id=OTHER_PARENT, **sender(OTHER_PARENT, "en"))
    async with running(bot, tg_settings, fake):
        await answered(fake, french, PARENT)
        await answered(fake, english, OTHER_PARENT)
    assert (bot.memory.get_user("telegram", str(PARENT)) or {}).get("board") == "cepeo"
    assert (bot.memory.get_user("telegram", str(OTHER_PARENT)) or {}).get("board") == "ocdsb"
