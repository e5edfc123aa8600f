"""What a broadcast says, in each recipient's language, and the checks on the author's text.

Staff may write both languages in one broadcast: the English text, then ``fr:`` and the
French text (``/broadcast tdsb Schools open Monday. fr: Les écoles sont ouvertes lundi.``;
a ``|`` before ``fr:`` is fine too, as /enddispute writes it). ``en:`` may mark the English part
too, in either order; the markers are read in any case, with or without a space before the
colon ("FR :", as French keyboards type it). A text with
no marker is one language (French when it reads as French, else English) and everyone gets
it: recipients of the other language get it under a header in theirs, with a line saying it
was written in one language only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from knowledge.model import ALL_BOARDS

LANGUAGES = ("en", "fr")
# "fr:" / "en:" at the start of the text or after a space or line break (not inside "https://fr:..." or a word)
_MARKER = re.compile(r"(?:^|(?<=\s))(en|fr)[ \u00a0\u202f]?:", re.IGNORECASE)


class BroadcastError(ValueError):
    """A broadcast that cannot be made (too long, empty, nobody to send to); the message says why.

    It carries a key of config/wording.yaml: `said(language)` is the message in the author's language."""

    def __init__(self, key: str, **fields: object):
        self.key, self.fields = key, fields
        super().__init__(self.said("en"))

    def said(self, language: str) -> str:
        from bot.replies import say

        return say(self.key, language, **self.fields)


@dataclass(frozen=True, slots=True)
class Broadcast:
    """A broadcast's texts: what the author wrote in each language, and what recipients of each get."""

    parts: dict[str, str]  # language -> the author's text in it (one language or both)
    texts: dict[str, str]  # "en" and "fr" -> exactly what recipients reading it get

    @property
    def written_in(self) -> tuple[str, ...]:
        return tuple(language for language in LANGUAGES if language in self.parts)


def split_languages(body: str) -> dict[str, str]:
    """The author's text per language: {"en": ..., "fr": ...} from the markers, else one text in the
    language it reads as. Raises BroadcastError for a marker given twice or a part left empty."""
    from bot import language

    found = list(_MARKER.finditer(body))
    if not found:
        text = body.strip()
        return {"fr" if language.detect(text, 2) == "fr" else "en": text}
    tags = [m.group(1).lower() for m in found]
    if len(set(tags)) != len(tags):
        raise BroadcastError("broadcast_marker_twice", marker=f"{tags[0]}:")
    parts: dict[str, str] = {}
    lead = _part(body[:found[0].start()])
    if lead:  # "Schools open. fr: Les écoles...": the untagged lead is the other language
        if len(tags) == 2:
            raise BroadcastError("broadcast_text_before_markers")
        parts["fr" if tags[0] == "en" else "en"] = lead
    for k, match in enumerate(found):
        end = found[k + 1].start() if k + 1 < len(found) else len(body)
        text = _part(body[match.end():end])
        if not text:
            raise BroadcastError("broadcast_part_empty", marker=f"{tags[k]}:")
        parts[tags[k]] = text
    return parts


def _part(text: str) -> str:
    """One language's text without the spaces and the "|" that may separate it from the next marker."""
    return text.strip().strip("|").strip()


def board_title(knowledge, board_id: str, language: str = "en") -> str:
    """How a broadcast names its board: "Toronto District School Board (TDSB)"."""
    if board_id == ALL_BOARDS:
        from bot.replies import say

        return say("broadcast_all_boards", language)
    board = knowledge.board(board_id)
    return f"{board.name} ({board.id.upper()})" if board else board_id


def broadcast_text(board_name: str, at: datetime, body: str, language: str = "en", written_in: str | None = None) -> str:
    """Exactly what recipients reading `language` get: a header naming the board and the time, then the
    text, plain; a line says so when the text is in another language (`written_in`)."""
    from bot.answers import when_published
    from bot.replies import say

    note = f"\n\n{say('broadcast_written_in_' + written_in, language)}" if written_in not in (None, language) else ""
    return (f"{say('broadcast_header', language, board=board_name, when=when_published(at, language))}\n\n"
            f"{body}{note}\n\n{say('broadcast_footer', language)}")


def compose(knowledge, board_id: str, at: datetime, body: str, max_chars: int) -> Broadcast:
    """The broadcast `body` makes (one or two languages), checked: BroadcastError says what is wrong."""
    if not body or not body.strip():
        raise BroadcastError("broadcast_empty")
    parts = split_languages(body)
    for text in parts.values():
        check_broadcast(text, max_chars)
    texts = {}
    for language in LANGUAGES:
        written_in = language if language in parts else next(iter(parts))
        texts[language] = broadcast_text(board_title(knowledge, board_id, language), at, parts[written_in],
                                         language, written_in)
    return Broadcast(parts, texts)


def check_broadcast(body: str, max_chars: int) -> None:
    """Raise BroadcastError with a clear message when the text is empty or too long."""
    if not body or not body.strip():
        raise BroadcastError("broadcast_empty")
    if len(body) > max_chars:
        raise BroadcastError("broadcast_too_long", length=f"{len(body):,}", limit=f"{max_chars:,}",
                             over=f"{len(body) - max_chars:,}")
    if "\x00" in body:
        raise BroadcastError("broadcast_nul")
