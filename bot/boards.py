"""Finding which school board a message is about.

A board is named by its id ("tdsb"), official name, an alias ("york
catholic"), or a place it serves ("mississauga"), possibly misspelt ("peal",
"tdbs"). A place alone means the English public board there; with "catholic"
the English Catholic board; with "french" the French board.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from bot.text import NearestWord, normalize
from knowledge.model import Board

_WORD = re.compile(r"[a-z0-9]+")
_TO = re.compile(r"\b(?:to|into)\b")
# "not peel", "c'est pas le pdsb", "no longer at tdsb": a board said not to be the one (text is normalised; "school
# tomorrow or not york region" asks there)
# "my son's grade 8 trip to ottawa": a place a trip goes to is not the family's board
_TRIP = re.compile(r"\b(?:trip|trips|visit|travel|voyage|sortie|excursion)\s+(?:to|a|en|au|in)\s+$")
_NOT = re.compile(r"(?<!\bor )(?<!\bou )\b(?:not|isnt|isn t|pas|plus|no longer|non)\s+(?:(?:le|la|l|les|au|aux|a|the|at|in|with|du|de|"
                  r"from|a la|avec)\s+)?$")
CATHOLIC_WORDS = frozenset({"catholic", "catholics", "catholique", "catholiques", "separate", "cath"})
FRENCH_WORDS = frozenset({"french", "francais", "francophone", "franco", "francaise", "francophones", "scolaire"})
ENGLISH_WORDS = frozenset({"english", "anglais", "anglaise", "anglophone", "anglophones"})
PUBLIC_WORDS = frozenset({"public", "publique", "publiques", "publics"})
KIND_WORDS = CATHOLIC_WORDS | FRENCH_WORDS | ENGLISH_WORDS | PUBLIC_WORDS  # words that ask for a kind of board
_NAME_SUFFIXES = (
    "catholic district school board",
    "district school board",
    "catholic school board",
    "school board",
    "board",
)


def _fits(board: Board, catholic: bool, french: bool) -> bool:
    """Whether a board is of the kind asked for: Catholic or public, French or English."""
    return (board.system == "catholic") == catholic and (board.language == "french") == french


@dataclass(frozen=True, slots=True)
class BoardMention:
    board_id: str
    start: int  # span in the normalised text
    end: int
    how: str  # "id" | "name" | "alias" | "place" | "fuzzy"


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


def _key(text: str) -> str:
    return " ".join(w for w, _, _ in _words(normalize(text)))


# "or only Toronto?", "ou c'est seulement Toronto?": a place asked about as the scope, not a family's board.
_ONLY = re.compile(r"\b(?:only|just|juste|seulement|uniquement)\s+$")
# The clauses of a message, each read for its own board: "one at a peel high school, one at a catholic school".
_CLAUSES = re.compile(r"(?:[^,;.!?]+?)(?=,|;|[.!?](?:\s|$)|\sand\s|\spis\s|\set\s|\sbut\s|$)")


# Words with these endings are ordinary English, never a misspelt board or place ("likely" is not Lively,
# Sudbury): a place so ended is still found when written as it is.
_ENGLISH_ENDINGS = ("ly", "ing", "ness", "tion")


class BoardFinder:
    def __init__(self, boards: Iterable[Board], protected_words: Iterable[str] = ()):
        self.boards = {b.id: b for b in boards}
        self.named: dict[str, tuple[str, str]] = {}  # phrase -> (board id, how)
        self.places: dict[str, list[str]] = {}  # phrase -> board ids serving it
        for board in self.boards.values():
            for place in board.municipalities:
                key = _key(place)
                if key and board.id not in self.places.setdefault(key, []):
                    self.places[key].append(board.id)
        for board in self.boards.values():
            self.named[board.id] = (board.id, "id")
            name = _key(board.name)
            self.named.setdefault(name, (board.id, "name"))
            for prefix in ("the ",):
                if name.startswith(prefix):
                    self.named.setdefault(name[len(prefix):], (board.id, "name"))
            for suffix in _NAME_SUFFIXES:
                if name.endswith(" " + suffix):
                    short = name[: -len(suffix) - 1].strip()
                    if suffix.startswith("catholic "):  # "hamilton wentworth" is the public board's, not the Catholic
                        short = f"{short} catholic" if short else short
                        if short in self.named:
                            break
                    if short and short not in self.places and short not in self.named:
                        self.named[short] = (board.id, "name")
                    break
            for alias in board.aliases:
                key = _key(alias)
                if key:
                    self.named[key] = (board.id, "alias")
        # For each word that starts a name or place: the most words such a phrase has.
        self._starts: dict[str, int] = {}
        for phrase in (*self.named, *self.places):
            first, _, _ = phrase.partition(" ")
            self._starts[first] = max(self._starts.get(first, 0), phrase.count(" ") + 1)
        # Single words that fuzzy matching may correct towards (ids, one-word aliases, places).
        self._fuzzy_keys = sorted(k for k in (*self.named, *self.places) if " " not in k and len(k) >= 4)
        self._speller = NearestWord(self._fuzzy_keys)
        self.protected: frozenset[str] = frozenset()
        self._found = lru_cache(maxsize=4096)(self._find)  # parents repeat themselves
        self.find_all = lru_cache(maxsize=4096)(self._find_all)
        self.protect(protected_words)

    def protect(self, words: Iterable[str]) -> None:
        """Ordinary words that must never be read as a misspelt board or place ("action" is not Acton)."""
        self.protected = (self.protected | frozenset(words)) - set(self._fuzzy_keys)
        self._found.cache_clear()
        self.find_all.cache_clear()

    # ------------------------------------------------------------------
    def _choose_place(self, board_ids: list[str], catholic: bool, french: bool) -> str:
        for board_id in board_ids:
            if _fits(self.boards[board_id], catholic, french):
                return board_id
        if french:  # "french" without "catholic": prefer any French board there
            for board_id in board_ids:
                if self.boards[board_id].language == "french":
                    return board_id
        if catholic:
            for board_id in board_ids:
                if self.boards[board_id].system == "catholic":
                    return board_id
        for board_id in board_ids:
            board = self.boards[board_id]
            if board.system == "public" and board.language == "english":
                return board_id
        return board_ids[0]

    def counterpart(self, board_id: str, text: str) -> str | None:
        """The board of another kind serving the same place, when a normalised message asks for one
        ("and the catholic one?" after Peel: Dufferin-Peel Catholic; "et le catholique?" after CEPEO: CECCE).
        A kind the message does not name stays the board's own. None when it names no kind or the same one."""
        board = self.boards.get(board_id)
        words = set(_WORD.findall(text))
        if board is None or not board.municipalities or not words & KIND_WORDS:
            return None
        catholic = bool(words & CATHOLIC_WORDS) or (board.system == "catholic" and not words & PUBLIC_WORDS)
        french = bool(words & FRENCH_WORDS) or (board.language == "french" and not words & ENGLISH_WORDS)
        shared: dict[str, int] = {}  # boards serving the board's places, with how many of them
        for place in board.municipalities:
            for other in self.places.get(_key(place), []):
                shared[other] = shared.get(other, 0) + 1
        wanted = next((b for b in sorted(shared, key=lambda b: -shared[b]) if _fits(self.boards[b], catholic, french)),
                      None)
        return wanted if wanted != board_id else None

    def find(self, text: str, language: str | None = None) -> BoardMention | None:
        """The board a normalised message names, or None. `text` must come from normalize().

        `language` is the message's language ("fr", "en", or None when unknown):
        a place named in French means the French board there.

        When a second, different board follows "to" ("switch me from peel to
        halton", "we moved from tdsb to york catholic"), that one is meant.
        """
        return self._found(text, language)

    def _find_all(self, text: str, language: str | None = None, limit: int = 3) -> tuple[BoardMention, ...]:
        """Every board a normalised message names by name or place, in its order, each once, at most `limit`:
        "one at hwdsb and one at hwcdsb". Misspellings count only for the first, and a place only when no board
        found so far serves it ("une école du CECCE à Orléans" is one board)."""
        tokens = _WORD.findall(text)
        if sum(token in self._starts for token in tokens) < 2:  # one name or place at most: `find` says which
            first = self._found(text, language)
            return (first,) if first is not None else ()
        found: list[BoardMention] = []
        for clause in _CLAUSES.finditer(text):  # "catholic" in one clause says nothing of the other's board
            offset, end = clause.start(), clause.end()
            while offset < end and len(found) < limit:
                mention = self._find_first(text[offset:end], language)
                if mention is None or (found and mention.how == "fuzzy"):
                    break
                # A place a board already named serves ("une école du CECCE à Orléans") says where its school is
                scope = _ONLY.search(text, max(0, offset + mention.start - 12), offset + mention.start) or \
                    _not_meant(text, mention, offset)
                if all(m.board_id != mention.board_id for m in found) and not scope and not self._served_by(
                        text[offset + mention.start:offset + mention.end], mention, found):
                    found.append(BoardMention(mention.board_id, mention.start + offset, mention.end + offset,
                                              mention.how))
                offset += mention.end
        if not found:  # each name said not to be the one ("peel not tdsb"): the one `find` reads
            first = self._found(text, language)
            return (first,) if first is not None else ()
        return tuple(found)

    def _served_by(self, phrase: str, mention: BoardMention, found: list[BoardMention]) -> bool:
        """Whether a place mentioned is served by a board already named (not by a place: "brampton ... a catholic
        school in mississauga" is two boards)."""
        if mention.how != "place" or not found:
            return False
        served = self.places.get(" ".join(_WORD.findall(phrase)), ())
        return any(m.board_id in served and m.how != "place" for m in found)

    def _find(self, text: str, language: str | None) -> BoardMention | None:
        first = self._find_first(text, language)
        if first is None:
            return None
        if _not_meant(text, first):  # "not peel, we're york region": York
            later = self._find_first(text[first.end:], language)
            if later is not None and later.board_id != first.board_id:
                return BoardMention(later.board_id, later.start + first.end, later.end + first.end, later.how)
            earlier = self._find_first(text[: first.start], language)  # "peel, not tdsb"
            if earlier is not None and earlier.board_id != first.board_id:
                return earlier
            if first.how == "place":
                return None
        rest = text[first.end :]
        link = _TO.search(rest)
        if link is not None:
            later = self._find_first(rest[link.end() :], language)
            if later is not None and later.board_id != first.board_id:
                offset = first.end + link.end()
                return BoardMention(later.board_id, later.start + offset, later.end + offset, later.how)
        return first

    def _find_first(self, text: str, language: str | None = None) -> BoardMention | None:
        tokens = _WORD.findall(text)
        if not tokens:
            return None
        token_set = set(tokens)
        catholic = not CATHOLIC_WORDS.isdisjoint(token_set)
        french = not FRENCH_WORDS.isdisjoint(token_set) or (
            language == "fr" and ENGLISH_WORDS.isdisjoint(token_set)
        )
        spans: list[re.Match] = []  # where each token is: looked up only for a token that names something

        def span(first: int, last: int) -> tuple[int, int]:
            if not spans:
                spans.extend(_WORD.finditer(text))
            return spans[first].start(), spans[last].end()

        starts, named, places = self._starts, self.named, self.places
        if starts.keys().isdisjoint(token_set):  # no name or place starts here: the first misspelt one, if any
            for i, token in enumerate(tokens):
                board_id = self._misspelt(token, catholic, french)
                if board_id is not None:
                    return BoardMention(board_id, *span(i, i), "fuzzy")
            return None
        place: BoardMention | None = None
        fuzzy: BoardMention | None = None
        i = 0
        n_words = len(tokens)
        while i < n_words:
            token = tokens[i]
            matched = False
            for n in range(min(starts.get(token, 0), n_words - i), 0, -1):
                phrase = token if n == 1 else " ".join(tokens[i : i + n])
                hit = named.get(phrase)
                if hit is not None:
                    board_id, how = hit
                    # "toronto catholic" style names already say catholic; a place
                    # name followed by the board's own words resolves here too.
                    return BoardMention(board_id, *span(i, i + n - 1), how)
                served = places.get(phrase)
                if served is not None:
                    if place is None:
                        place = BoardMention(self._choose_place(served, catholic, french), *span(i, i + n - 1), "place")
                    i += n
                    matched = True
                    break
            if matched:
                continue
            if fuzzy is None:
                board_id = self._misspelt(token, catholic, french)
                if board_id is not None:
                    fuzzy = BoardMention(board_id, *span(i, i), "fuzzy")
            i += 1
        return place or fuzzy

    def _misspelt(self, token: str, catholic: bool, french: bool) -> str | None:
        """The board a misspelt name or place most likely means (the speller caches the search)."""
        if len(token) < 4 or token in self.protected or token.isdigit() or token.endswith(_ENGLISH_ENDINGS):
            return None
        key = self._speller.find(token)
        if key is None:
            return None
        return self.named[key][0] if key in self.named else self._choose_place(self.places[key], catholic, french)

    def lookup(self, query: str) -> Board | None:
        """A board from a short query such as a /board argument ("peel", "tdbs", "Mississauga")."""
        query = normalize(query)
        if query in self.boards:
            return self.boards[query]
        mention = self.find(query)
        return self.boards[mention.board_id] if mention else None

    def suggest(self, text: str, limit: int = 25) -> list[Board]:
        """Boards that what was typed so far may mean, best first (for autocomplete menus).

        The board :meth:`lookup` would pick comes first (a city means its English
        public board, a misspelling its likely board), then ids and names that start
        with the text, then aliases and places that start with it or names with a
        word that does, then any name, alias or place containing it.
        """
        query = normalize(text or "")
        found = self.lookup(query) if len(query) >= 3 else None
        ranked: list[tuple[int, str, Board]] = []
        for board in self.boards.values():
            name = normalize(board.name)
            others = [normalize(key) for key in (*board.aliases, *board.municipalities)]
            if found is not None and board.id == found.id:
                rank = -1
            elif not query or board.id == query:
                rank = 0
            elif board.id.startswith(query) or name.startswith(query):
                rank = 1
            elif any(key.startswith(query) for key in others) or f" {query}" in f" {name}":
                rank = 2
            elif query in name or any(query in key for key in others):
                rank = 3
            else:
                continue
            ranked.append((rank, name, board))
        ranked.sort(key=lambda item: item[:2])
        return [board for _, _, board in ranked[: max(0, limit)]]


def _not_meant(text: str, mention: BoardMention, offset: int = 0) -> bool:
    """Whether the words before a board found in `text` (at `offset`) say it is not the one meant: "not peel",
    "c'est pas le pdsb", or a place a trip goes to ("trip to ottawa")."""
    start = offset + mention.start
    return _NOT.search(text, max(0, start - 20), start) is not None or (
        mention.how == "place" and _TRIP.search(text, max(0, start - 20), start) is not None)
