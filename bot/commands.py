"""The one list of commands parents use: help text, Telegram's command menu and
Discord's slash commands are all generated from it.

Staff commands (/setstatus, /broadcast, ...) are registered by the admin tools
and described in their own help; they are not in the public menus.
"""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("en", "fr")


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

    def describe(self, language: str = "en") -> str:
        return self.description.get(language) or self.description["en"]

    def written(self, language: str = "en") -> str:
        usage = self.usage_fr if language == "fr" and self.usage_fr else self.usage
        return f"/{self.name} {usage}".rstrip()


_BOARD = Argument(
    "board",
    {"en": "a school board: name, abbreviation or city (default: yours)",
     "fr": "un conseil scolaire : nom, sigle ou ville (par défaut : le vôtre)"},
    boards=True,
)

COMMANDS: tuple[Command, ...] = (
    Command("start", "", {"en": "What I can answer and how to ask", "fr": "Ce que je peux répondre et comment demander"},
            private=True),
    Command("help", "", {"en": "Example questions and the commands", "fr": "Exemples de questions et liste des commandes"},
            private=True),
    Command(
        "status", "[board] [date]",
        {"en": "Is school open? For your board (or another) and a day",
         "fr": "L'école est-elle ouverte? Pour votre conseil (ou un autre) et un jour"},
        (_BOARD,
         Argument("date", {"en": "a day, e.g. monday, tomorrow, Oct 7 (default: today)",
                           "fr": "un jour, p. ex. lundi, demain, 7 octobre (par défaut : aujourd'hui)"})),
        usage_fr="[conseil] [date]",
    ),
    Command(
        "board", "NAME",
        {"en": "Set or show your school board (its name, abbreviation or your city)",
         "fr": "Choisir ou voir votre conseil scolaire (son nom, son sigle ou votre ville)"},
        (Argument("name", {"en": "the board's name, abbreviation or your city",
                           "fr": "le nom du conseil, son sigle ou votre ville"},
                  boards=True),),
        private=True,
        usage_fr="NOM",
    ),
    Command(
        "subscribe", "[board|all]",
        {"en": "Get official updates for a board (group admins: for this group)",
         "fr": "Recevoir les mises à jour officielles d'un conseil (admins : pour ce groupe)"},
        (Argument("board", {"en": "a board, or 'all' (default: the board you set with /board)",
                            "fr": "un conseil, ou « tous » (par défaut : celui choisi avec /board)"}, boards=True),),
        usage_fr="[conseil|tous]",
    ),
    Command("unsubscribe", "", {"en": "Stop the updates", "fr": "Arrêter les mises à jour"}),
    Command("language", "[en|fr]", {"en": "Answer me in English or French: /language fr",
                                  "fr": "Me répondre en anglais ou en français : /langue fr"},
            (Argument("language", {"en": "en or fr", "fr": "en ou fr"}),), private=True),
    Command("whoami", "", {"en": "Your user id on this platform (to be given a staff role)",
                           "fr": "Votre identifiant sur cette plateforme (pour recevoir un rôle)"}, private=True),
)

# French names a parent may type (the menus list the English names, with French descriptions);
# a message that starts with one is answered in French.
FRENCH_NAMES = {"langue": "language", "aide": "help", "conseil": "board", "statut": "status", "abonner": "subscribe",
                "sabonner": "subscribe", "desabonner": "unsubscribe", "arreter": "unsubscribe"}
ALIASES = {"stop": "unsubscribe", **FRENCH_NAMES}  # other names that run the same command


def command(name: str) -> Command | None:
    """The command called `name` (or one of its aliases), without the slash."""
    name = ALIASES.get(name, name)
    return next((c for c in COMMANDS if c.name == name), None)


def menu(language: str = "en") -> list[tuple[str, str]]:
    """(name, description) of every command in the platforms' menus, in one language."""
    return [(c.name, c.describe(language)) for c in COMMANDS if c.menu]


def help_lines(language: str = "en") -> list[str]:
    """One line per command for the help text: '/status [board] [date] - Is school open? ...'."""
    return [f"{c.written(language)} - {c.describe(language)}" for c in COMMANDS if c.name != "start"]
