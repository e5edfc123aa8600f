"""Which language a message is in: English or French, from common words and accents.

Word lists, not a statistical model: parents' messages are short, typed fast,
often without accents ("ecole ouverte lundi?") and sometimes mixed ("is l'école
open lundi?"). Each word votes for the language whose list holds it; a word in
both lists ("a", "on", "plan") votes for neither. The majority wins; a tie or a
message with too few votes (a board name, a date, "ok", "merci") says nothing,
and the bot keeps the user's language.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

LANGUAGES = ("en", "fr")

_FRENCH_WORDS = """
le la les l un une des du de d au aux en ce cet cette ces ça ca c qu que qui quoi quand quel quelle quels quelles
est sont sera seront serait seraient était etait ont avoir être etre fait faire va vont peut peuvent doit doivent
je j tu il elle on nous vous ils elles mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs me m te t se s y
et ou mais donc car ni pour par avec sans chez dans sur sous entre vers depuis pendant avant après apres encore déjà deja
pas ne plus rien aucun aucune tout tous toute toutes très tres trop bien aussi seulement comment pourquoi combien où
oui non merci bonjour salut allo bonsoir svp stp sil plait désolé desole
école ecole écoles ecoles ouverte ouvertes ouvert ouverts fermée fermee fermées fermees fermé ferme fermés fermes
grève greve grèves greves gréviste débrayage debrayage zèle zele ralenti syndicat syndiqués travailleurs travailleuses
enseignants enseignantes enseignant enseignante élèves eleves élève eleve enfant enfants fils fille garçon
garde garderie service services parents parent conseil conseils scolaire scolaires commission
aujourd'hui aujourdhui demain hier lundi mardi mercredi jeudi vendredi samedi dimanche semaine prochain prochaine
janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre décembre decembre
mise mises jour jours nouvelles entente négociations negociations pourparlers grève-t-elle quoi
aide aides éducatrices educatrices éducateurs educateurs concierges secrétaires secretaires bibliothèque
autobus dîner diner repas bulletin bulletins examens remise diplômes diplome
parlez parler parle français francais anglais langue répondre repondre
moi toi annuler arrêter arreter abonnement abonnements abonner abonnez abonne désabonner desabonner alertes avis
"""

_ENGLISH_WORDS = """
the is are was were be been being will would can could should shall may might must do does did have has had
i you he she it we they my your his her its our their me him us them this that these those there here
what when where why how who which whose whom
and or but so because if then than not no yes any some all every each
of to in at for with from by about into over after before during until since
school schools open opened close closed closing strike strikes striking union workers teachers teacher kids kid
child children son daughter care daycare tomorrow today yesterday monday tuesday wednesday thursday friday
saturday sunday week next talks deal news update updates board boards thanks thank please hello hi hey
going gonna happen happening still anyone know tell help going stop stopped start started work rule
english french speak
"""
FRENCH = frozenset(_FRENCH_WORDS.split())
ENGLISH = frozenset(_ENGLISH_WORDS.split())

# Words both languages use, or that are too short to tell: they never vote.
_BOTH = frozenset({"a", "on", "plan", "mon", "ont",  # "mon": Monday, "ont.": Ontario, in English messages
                    "date", "service", "services", "parents", "parent", "conseil", "union",
                   "ok", "info", "bus", "message", "transport", "solution", "note", "options",
                   "surveillance", "programme", "program", "minute", "minutes", "rotation", "mobile"})
# French grammar words an English speaker does not borrow (unlike "merci" or "lundi"), none of them in a
# board's name ("est" is, in "de l'Est"): two of them make a mixed message French ("school is open ou pas?",
# "why are they striking? je comprends pas"); franco-Ontarian parents put English words in French sentences.
_GRAMMAR_WORDS = "je j tu pas ou c qu que qui les le la un une pour avec ma mes ça ca svp stp il ils elle nous vous sont"
_GRAMMAR = frozenset(_GRAMMAR_WORDS.split())
_ELIDED = ("c'", "qu'", "n'", "s'")
_ACCENTED = re.compile(r"[éèêàâçôûùîïë]")
_WORD = re.compile(r"[a-zà-ÿ]+(?:'[a-zà-ÿ]+)?")


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


_FRENCH_FOLDED = frozenset(_fold(w) for w in FRENCH) - _BOTH
_ENGLISH_FOLDED = frozenset(ENGLISH) - _BOTH


# The end of an English board's name ("Ottawa Catholic School Board", "Peel District School Board")
# names a board, not the writer's language: "Ottawa Catholic School Board ouvert lundi?" is French.
_BOARD_NAME = re.compile(r"\b(?:catholic\s+)?(?:district\s+)?school\s+board\b")


def _lowered(text: str) -> str:
    return _BOARD_NAME.sub(" ", text.lower().replace("’", "'"))


def votes(text: str) -> tuple[int, int]:
    """(French votes, English votes) for a message."""
    return _counts(text)[:2]


def _votes(lowered: str) -> tuple[int, int, int]:
    """(French votes, English votes, French grammar words) for a lower-case message."""
    french = english = grammar = 0
    plain = lowered.isascii()  # most messages: no accents to fold or to count
    for token in _WORD.findall(lowered):
        # "l'école", "qu'il", "c'tu": the elided article and the word both count
        for part in token.split("'") if "'" in token else (token,):
            if not part:
                continue
            if plain:
                in_french, word = part in _FRENCH_FOLDED, part
            else:
                word = _fold(part)
                in_french = word in _FRENCH_FOLDED or _ACCENTED.search(part) is not None  # "à", "école"
            in_english = word in _ENGLISH_FOLDED
            if in_french and not in_english:
                french += 1
                grammar += word in _GRAMMAR or (word == "est" and token.startswith(_ELIDED))  # c'est, qu'est
            elif in_english and not in_french:
                english += 1
    return french, english, grammar


@lru_cache(maxsize=16384)  # a message is read by the reply's language and by the matcher
def _text_votes(text: str) -> tuple[int, int, int]:
    return _votes(_lowered(text))


def _counts(text: str) -> tuple[int, int, int]:
    """(French votes, English votes, French grammar words) for a message, kept for messages up to 500 characters."""
    return _text_votes(text) if len(text) <= 500 else _votes(_lowered(text))


def detect(text: str, min_votes: int = 2) -> str | None:
    """'fr', 'en', or None when the message does not say clearly (keep the user's language).

    The winner needs `min_votes` words: one French word ("merci", "lundi") in an
    English user's message does not switch the conversation; for a user whose
    language is not known yet, pass min_votes=1. Two French grammar words make a
    mixed message French even when its English words are more ("c'est quoi le work to rule").
    """
    french, english, grammar = _counts(text)
    if (french > english or grammar >= 2) and french >= min_votes:
        return "fr"
    if english > french and english >= min_votes:
        return "en"
    return None


def from_locale(locale: str | None) -> str | None:
    """A platform's language code ("fr", "fr-CA", "fr_FR", "en-US") as a first guess."""
    if not locale:
        return None
    code = locale.replace("_", "-").split("-", 1)[0].lower()
    return code if code in LANGUAGES else None
