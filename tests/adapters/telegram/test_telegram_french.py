"""A French user on Telegram, through python-telegram-bot and the fake Bot API: French menus and French answers."""

from __future__ import annotations

from telegram_support import PARENT, answered

from bot.commands import menu
from bot.language import detect

FRENCH_USER = {"id": PARENT, "is_bot": False, "first_name": "Dominique", "language_code": "fr"}


async def test_a_french_user_gets_the_french_menu_and_french_answers(fake, bot, tg_settings, running):
    async with running(bot, tg_settings, fake):
        question = fake.private("est-ce que l'école est ouverte lundi à peel?", user_id=PARENT, **{"from": FRENCH_USER})
        texts = await answered(fake, question, PARENT)
        texts = await answered(fake, fake.private("merci", user_id=PARENT, **{"from": FRENCH_USER}), PARENT, 2)
        texts = await answered(fake, fake.private("/help", user_id=PARENT, **{"from": FRENCH_USER}), PARENT, 3)
    assert texts[0].startswith("Peel DSB, lundi 7 octobre : pas encore décidé")
    assert "Source : 2019-10-02-full-strike-notice-talks-friday.txt, au 2 oct. 2019, 20 h." in texts[0]
    assert texts[1].startswith("De rien!")
    assert "Commandes :" in texts[2] and detect(texts[2]) == "fr"
    french_menu = [c for c in fake.calls_to("setMyCommands") if c.get("language_code") == "fr"]
    descriptions = {x["command"]: x["description"] for x in french_menu[0]["commands"]}
    assert descriptions == dict(menu("fr"))
    assert descriptions["status"].startswith("L'école est-elle ouverte?")
    assert descriptions["language"] == "Me répondre en anglais ou en français : /langue fr"


async def test_langue_command_switches_a_user_both_ways(fake, bot, tg_settings, running):
    async with running(bot, tg_settings, fake):
        await answered(fake, fake.private("/langue fr", user_id=PARENT), PARENT)
        texts = await answered(fake, fake.private("/status peel monday", user_id=PARENT), PARENT, 2)
        await answered(fake, fake.private("/language en", user_id=PARENT), PARENT, 3)
        texts = await answered(fake, fake.private("/status peel monday", user_id=PARENT), PARENT, 4)
    assert texts[0].startswith("D'accord, je vous répondrai en français")
    assert texts[1].startswith("Peel DSB, lundi 7 octobre")
    assert texts[2].startswith("OK, I'll answer you in English")
    assert texts[3].startswith("Peel DSB, Monday, October 7")
