import re

from bot.commands import COMMANDS, LANGUAGES, command, help_lines, menu


def test_every_command_fits_both_platforms_menus_in_both_languages():
    for cmd in COMMANDS:
        assert re.fullmatch(r"[a-z]{1,32}", cmd.name)  # Telegram and Discord both accept it
        for language in LANGUAGES:
            assert 1 <= len(cmd.describe(language)) <= 100, (cmd.name, language)  # Discord's limit
            for argument in cmd.arguments:
                assert re.fullmatch(r"[a-z]{1,32}", argument.name)
                assert 1 <= len(argument.description[language]) <= 100


def test_aliases_and_menus_come_from_the_one_list():
    assert command("langue") is command("language") and command("stop") is command("unsubscribe")
    assert command("nosuch") is None
    names = [name for name, _ in menu("fr")]
    assert names[:3] == ["start", "help", "status"] and "whoami" in names
    assert dict(menu("fr"))["unsubscribe"] == "Arrêter les mises à jour"
    assert "/status [board] [date] - Is school open? For your board (or another) and a day" in help_lines()
