"""The one command registry: every command's names, arguments, descriptions, rights and what runs it.

Each :class:`Command` declares, in one place:

* its name and other names: English aliases (``/stop``) and French names (``/aide``, answered in French);
* how it is written (``usage``, ``usage_fr``), its description in English and French, its arguments;
* who may run it (``rights``: :data:`PUBLIC`, :data:`GROUP_ADMIN`, :data:`STAFF`, :data:`PROVINCE`);
* whether the platforms' menus list it (``menu``) and whether its answer concerns only the asker (``private``);
* what runs it: the ``intent`` the matcher gives it (``/status`` -> ``school_status``, answered like the
  question "is school open?") or a ``handler(bot, msg, argument) -> list[Reply] | None``.

Everything else is derived from it: the help text, Telegram's menu, Discord's slash commands, the
matcher's command -> intent mapping, the French names that choose the reply's language, and the core's
dispatch (:class:`Registry`, one per bot: the staff tools add their commands to it when the bot is built).
:func:`parse` is the one reader of "/name@bot argument" text, for the core and the adapters alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from bot import replies, user_commands
from bot.messages import Incoming, Reply
from bot.text import normalize
from bot.user_commands import Host

LANGUAGES = ("en", "fr")

# Who may run a command (bot.roles tells who has which rights; bot.admin.permissions checks the staff levels).
PUBLIC = "public"  # anyone
GROUP_ADMIN = "group_admin"  # anyone in a private chat; in a group, only the group's admins (it manages the group)
STAFF = "staff"  # board staff and province admins, in a private chat
PROVINCE = "province"  # province admins only, in a private chat

Handler = Callable[[Host, Incoming, str], "list[Reply] | None"]  # None: answer the message as a question


@dataclass(frozen=True, slots=True)
class Argument:
    name: str  # as Discord shows it: lower case, no spaces
    description: dict[str, str]  # language -> text
    required: bool = False
    boards: bool = False  # offer board names as suggestions


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    usage: str  # how it is written, after the name: "[board] [date]"
    description: dict[str, str]  # language -> one line (Telegram's menu allows 256 characters, Discord 100)
    arguments: tuple[Argument, ...] = ()
    private: bool = False  # the answer concerns only the asker (Discord sends it ephemeral)
    menu: bool = True  # listed in the platforms' command menus
    usage_fr: str = ""  # the usage in French words ("[conseil] [date]"); default: `usage`
    aliases: tuple[str, ...] = ()  # other English names that run it ("stop")
    french: tuple[str, ...] = ()  # French names, lower case without accents ("desabonner"): answered in French
    rights: str = PUBLIC
    intent: str | None = None  # the intent it runs, answered like a question of that intent
    handler: Handler | None = None  # or the function that answers it
    help: bool = True  # a line in the help text (/start is the help itself)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases, *self.french)

    @property
    def staff(self) -> bool:
        return self.rights in (STAFF, PROVINCE)

    def describe(self, language: str = "en") -> str:
        return self.description.get(language) or self.description["en"]

    def written(self, language: str = "en") -> str:
        usage = self.usage_fr if language == "fr" and self.usage_fr else self.usage
        return f"/{self.name} {usage}".rstrip()


# ---------------------------------------------------------------- reading "/name@bot argument"
@dataclass(frozen=True, slots=True)
class Invocation:
    """A message read as a command."""

    name: str  # lower case, no accents: "desabonner" for "/Désabonner"
    argument: str  # the rest of the message, stripped
    addressee: str = ""  # "schoolbot" in "/status@schoolbot tdsb"
    at: tuple[int, int] = (0, 0)  # where "@addressee" is in the text read

    def unaddressed(self, text: str) -> str:
        """`text` (the text read) without its "@addressee"."""
        start, end = self.at
        return text[:start] + text[end:] if end else text


_COMMAND = re.compile(r"\s*/(\w+)(?:@(\w+))?(.*)", re.S)


def parse(text: str) -> Invocation | None:
    """The command a message is ("/status@schoolbot tdsb monday"), or None when it does not start with one."""
    found = _COMMAND.match(text)
    if found is None:
        return None
    name = found.group(1)
    name = name.lower() if name.isascii() else normalize(name)
    at = (found.start(2) - 1, found.end(2)) if found.group(2) else (0, 0)
    return Invocation(name, found.group(3).strip(), found.group(2) or "", at)


# ---------------------------------------------------------------- the commands
_BOARD = Argument(
    "board",
    {"en": "a school board: name, abbreviation or city (default: yours)",
     "fr": "un conseil scolaire : nom, sigle ou ville (par défaut : le vôtre)"},
    boards=True,
)

COMMANDS: tuple[Command, ...] = (
    Command("start", "", {"en": "What I can answer and how to ask", "fr": "Ce que je peux répondre et comment demander"},
            private=True, intent="help", help=False),
    Command("help", "", {"en": "Example questions and the commands", "fr": "Exemples de questions et liste des commandes"},
            private=True, french=("aide",), intent="help"),
    Command(
        "status", "[board] [date]",
        {"en": "Is school open? For your board (or another) and a day",
         "fr": "L'école est-elle ouverte? Pour votre conseil (ou un autre) et un jour"},
        (_BOARD,
         Argument("date", {"en": "a day, e.g. monday, tomorrow, Oct 7 (default: today)",
                           "fr": "un jour, p. ex. lundi, demain, 7 octobre (par défaut : aujourd'hui)"})),
        usage_fr="[conseil] [date]", french=("statut",), intent="school_status",
    ),
    Command(
        "board", "NAME",
        {"en": "Set or show your school board (its name, abbreviation or your city)",
         "fr": "Choisir ou voir votre conseil scolaire (son nom, son sigle ou votre ville)"},
        (Argument("name", {"en": "the board's name, abbreviation or your city",
                           "fr": "le nom du conseil, son sigle ou votre ville"},
                  boards=True),),
        private=True, usage_fr="NOM", french=("conseil",), intent="set_board",
    ),
    Command(
        "subscribe", "[board|all]",
        {"en": "Get official updates for a board (group admins: for this group)",
         "fr": "Recevoir les mises à jour officielles d'un conseil (admins : pour ce groupe)"},
        (Argument("board", {"en": "a board, or 'all' (default: the board you set with /board)",
                            "fr": "un conseil, ou « tous » (par défaut : celui choisi avec /board)"}, boards=True),),
        usage_fr="[conseil|tous]", french=("abonner", "sabonner"), rights=GROUP_ADMIN, intent="subscribe",
    ),
    Command("unsubscribe", "", {"en": "Stop the updates", "fr": "Arrêter les mises à jour"},
            aliases=("stop",), french=("desabonner", "arreter"), rights=GROUP_ADMIN, intent="unsubscribe"),
    Command("language", "[en|fr]", {"en": "Answer me in English or French: /language fr",
                                  "fr": "Me répondre en anglais ou en français : /langue fr"},
            (Argument("language", {"en": "en or fr", "fr": "en ou fr"}),), private=True, french=("langue",),
            handler=user_commands.language),
    Command("whoami", "", {"en": "Your user id on this platform (to be given a staff role)",
                           "fr": "Votre identifiant sur cette plateforme (pour recevoir un rôle)"}, private=True,
            handler=user_commands.whoami),
)


class Registry:
    """The commands a bot answers, by every name: the public ones, and the staff tools' once registered."""

    def __init__(self, commands: Iterable[Command] = COMMANDS):
        self._commands: dict[str, Command] = {}
        self._by_name: dict[str, Command] = {}
        for entry in commands:
            self.add(entry)

    def add(self, entry: Command, *, replacing: bool = False) -> None:
        """Register a command; `replacing` an existing one of that name (a handler that knows more)."""
        if entry.handler is None and entry.intent is None:
            raise ValueError(f"/{entry.name} has neither a handler nor an intent: nothing would answer it")
        taken = [name for name in entry.names if name in self._by_name
                 and not (replacing and self._by_name[name].name == entry.name)]
        if taken:
            raise ValueError(f"/{entry.name}: the name(s) {', '.join(taken)} already run another command")
        self._commands[entry.name] = entry
        self._by_name.update(dict.fromkeys(entry.names, entry))

    def get(self, name: str) -> Command | None:
        """The command called `name` (any of its names, without the slash; lower case, no accents)."""
        return self._by_name.get(name)

    def __iter__(self) -> Iterator[Command]:
        return iter(self._commands.values())

    def __contains__(self, name: object) -> bool:
        return name in self._by_name


PUBLIC_COMMANDS = Registry(COMMANDS)
_INTENTS = {name: c.intent for c in COMMANDS if c.intent for name in c.names}
_FRENCH = frozenset(name for c in COMMANDS for name in c.french)
# The intents that manage a group (subscribing it): in a group, only its admins may ask them.
GROUP_ADMIN_INTENTS = frozenset(c.intent for c in COMMANDS if c.rights == GROUP_ADMIN and c.intent)


def command(name: str) -> Command | None:
    """The public command called `name` (or one of its other names), without the slash."""
    return PUBLIC_COMMANDS.get(name)


def canonical(name: str | None) -> str | None:
    """The main name of the public command called `name` ("status" for "statut"), else `name` itself."""
    found = PUBLIC_COMMANDS.get(name) if name else None
    return found.name if found is not None else name


def intent_of(name: str) -> str | None:
    """The intent a public command runs ("school_status" for "statut"), None for a handler's or an unknown one."""
    return _INTENTS.get(name)


def in_french(text: str) -> bool:
    """Whether a message is a command called by a French name (/aide, /désabonner@schoolbot)."""
    head = text[:40]
    if "/" not in head and head.isascii():  # normalising ASCII text makes no "/": no command
        return False
    found = parse(normalize(head))
    return found is not None and found.name in _FRENCH


def menu(language: str = "en") -> list[tuple[str, str]]:
    """(name, description) of every command in the platforms' menus, in one language."""
    return [(c.name, c.describe(language)) for c in COMMANDS if c.menu]


def help_lines(language: str = "en") -> list[str]:
    """One line per command for the help text: '/status [board] [date] - Is school open? ...'."""
    board = replies.fill_region("{region_board}", language)  # "your school division" in Alberta's help
    return [f"{c.written(language)} - {c.describe(language).replace(_BOARD_WORD[language], board)}"
            for c in COMMANDS if c.help and c.menu]


_BOARD_WORD = {"en": "school board", "fr": "conseil scolaire"}  # as the descriptions say it, for a region's word


def help_text(language: str = "en") -> str:
    """The full help: what to ask (the region's example), then one line per command."""
    return replies.help_text(language, tuple(help_lines(language)))
