"""The one command registry (bot.commands) dispatches: every command it lists, in /help, in the menus or
registered by the staff tools, is answered through Bot.handle, and "/name@bot argument" is read in one place."""

from __future__ import annotations

import re

import pytest

from bot.answering import intents
from bot.commands import COMMANDS, PUBLIC, Command, Registry, help_lines, intent_of, menu, parse
from bot.messages import Reply
from bot.replies import say
from tests.conftest import message

UNKNOWN = re.compile(r"I don't know the command|Je ne connais pas la commande")


def test_the_unknown_command_wording_is_what_these_tests_look_for():
    assert UNKNOWN.search(say("unknown_command", "en", command="nosuch"))
    assert UNKNOWN.search(say("unknown_command", "fr", command="nosuch"))


def test_every_registered_command_has_a_handler_or_an_intent(bot):
    registered = list(bot.commands)
    assert {c.name for c in COMMANDS} <= {c.name for c in registered}
    assert any(c.staff for c in registered)  # the staff tools registered theirs when the bot was built
    lacking = [c.name for c in registered if c.handler is None and c.intent is None]
    assert lacking == []
    unanswered = [c.name for c in registered if c.intent is not None and c.intent not in intents.HANDLERS]
    assert unanswered == []  # an intent nothing answers would be "not sure"


def test_a_command_with_nothing_to_answer_it_is_refused():
    with pytest.raises(ValueError, match="neither a handler nor an intent"):
        Registry([Command("ping", "", {"en": "Nothing runs me"})])
    with pytest.raises(ValueError, match="already run another command"):
        Registry([*COMMANDS, Command("arreter", "", {"en": "Taken"}, intent="help")])


def _names_shown() -> set[str]:
    """Every command name a parent is shown: the help text's lines and the platforms' menus, both languages."""
    shown = set()
    for language in ("en", "fr"):
        shown |= {line.split()[0][1:] for line in help_lines(language)}
        shown |= {name for name, _ in menu(language)}
    return shown


def test_every_command_in_the_help_and_the_menus_is_answered(bot):
    names = _names_shown() | {name for c in COMMANDS for name in c.names}
    assert {"start", "help", "status", "board", "language", "aide", "stop", "langue"} <= names
    for name in sorted(names):
        replies = bot.handle(message(f"/{name}", user=f"p-{name}"))
        assert replies and not any(UNKNOWN.search(r.text) for r in replies), name


def test_every_staff_command_is_answered_even_to_a_parent(bot):
    for entry in bot.commands:
        if entry.staff:
            text = "\n".join(r.text for r in bot.handle(message(f"/{entry.name}", user="parent")))
            assert text and not UNKNOWN.search(text), entry.name
            assert "only for school board staff" in text, entry.name


def test_an_unknown_command_still_says_so(bot):
    assert UNKNOWN.search(bot.handle(message("/nosuch"))[0].text)


def test_a_command_added_to_the_registry_is_dispatched(bot):
    def ping(bot_, msg, argument: str) -> list[Reply]:
        return [Reply(f"pong {argument}", msg.chat_id, private=True)]

    bot.commands.add(Command("ping", "[WORD]", {"en": "Answers pong", "fr": "Répond pong"}, french=("tintement",),
                             handler=ping))
    assert [r.text for r in bot.handle(message("/ping@schoolbot hello"))] == ["pong hello"]
    assert [r.text for r in bot.handle(message("/Tintement  là"))] == ["pong là"]
    response = bot.respond(message("/ping"))
    assert response.intent == "help" and response.confidence == 1.0


def test_intents_and_names_come_from_the_declarations():
    assert intent_of("status") == intent_of("statut") == "school_status"
    assert intent_of("stop") == intent_of("desabonner") == "unsubscribe"
    assert intent_of("whoami") is None and intent_of("nosuch") is None  # a handler's, and none
    assert all(c.rights == PUBLIC or c.intent in {"subscribe", "unsubscribe"} for c in COMMANDS)


@pytest.mark.parametrize(("text", "name", "argument", "addressee"), [
    ("/status", "status", "", ""),
    ("  /Status@SchoolBot tdsb  monday ", "status", "tdsb  monday", "SchoolBot"),
    ("/désabonner", "desabonner", "", ""),
    ("/whoami\nplease", "whoami", "please", ""),
    ("/status, tdsb", "status", ", tdsb", ""),
])
def test_one_reading_of_a_command(text, name, argument, addressee):
    found = parse(text)
    assert (found.name, found.argument, found.addressee) == (name, argument, addressee)


def test_what_is_no_command():
    assert parse("is school open?") is None and parse("/ status") is None and parse("1/2 day") is None
    assert parse("") is None and parse("/") is None


def test_the_addressee_is_taken_out_where_it_was():
    text = "/status@schoolbot tdsb"
    assert parse(text).unaddressed(text) == "/status tdsb"
    assert parse("/status tdsb").unaddressed("/status tdsb") == "/status tdsb"


def test_a_command_called_by_its_french_name_does_what_its_english_name_does(bot):
    def said(text: str, user: str) -> str:
        return "\n".join(r.text for r in bot.handle(message(text, user=user)))

    assert said("/statut cepeo lundi", "fr1") == said("/status cepeo lundi", "fr2")  # the full day's status
    assert said("/conseil", "fr3").startswith("Vous n'avez pas encore choisi de conseil scolaire")
