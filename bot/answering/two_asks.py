"""Two questions in one message: "who is cupe and why are they doing this", "c'est quand la grève pis c'est quoi
qu'ils veulent". The message is answered whole as before; when it holds a second question of another topic that the
answer leaves out, that question's first line is added, in the order they were asked.

Only questions the matcher reads surely, of two different topics that are not a day's status (a day and the
daycare, two days, two boards are answered together elsewhere), count: "is school open monday and what about the
EA?" stays one answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.answering.card_choice import SURE  # each question must be read as surely as an intent is taken as sure
from bot.text import normalize

if TYPE_CHECKING:
    from bot.analysis import Analysis

# The topics a second question can be about (not commands, not a day's status, not "not sure").
TOPICS = frozenset({"strike_dates", "withdrawn_services", "childcare", "negotiations", "who_is_affected",
                    "dispute_issues", "work_to_rule", "updates_source"})
_MIN_WORDS = 2  # each question at least this many words ("why?" alone leans on the first)...
_MIN_FIRST_WORDS = 3  # ...and the first this many ("talks failed?? should i book a sitter": news, then the question)

# Where a second question starts: after "and", "&", "pis", "et", "plus", a comma or a question mark, a question
# word ("... and why are they doing this", "...? c'est quoi qu'ils veulent").
_ASK = (r"(?:why|what|whats|what's|when|who|whos|who's|how|where|which|will|would|do|does|did|can|could|should|is|"
        r"are|r|pourquoi|quand|qui|quoi|comment|où|ou|combien|est-ce|c'est|c est|qu'est-ce|ça|ca)\b")
_SPLIT = re.compile(r"(?:\?+\s*(?:(?:and|&|pis|puis|et|plus|also)\s+)?|,\s*(?:(?:and|&|pis|puis|et)\s+)?|\s+(?:and|&|pis|puis|et)\s+)"
                    r"(?:(?:also|aussi|then|so|donc|pis)\s+)?(?=" + _ASK + ")", re.IGNORECASE)


_STARTS_ASKING = re.compile(_ASK)
# "whats a no board report and what does it mean for us": the second asks about the first's answer
_LEANS = re.compile(r"(?:what|how) (?:does|will|would|do) (?:it|that|this) (?:mean|affect|change)\b|"
                    r"(?:qu'est-ce que|qu'est ce que|est-ce que) (?:ca|ce|cela) (?:veut dire|change)\b|ca veut dire\b")
# "...and what about the custodians?": the first question asked again of something else, answered elsewhere
_SAME_AGAIN = re.compile(r"(?:what|how) about\b|(?:et|pis|puis) (?:pour|avec)\b|qu'en est-il\b|(?:and|et) (?:les|the)\b")


@dataclass(frozen=True, slots=True)
class Asks:
    """A message's two questions, as written."""

    first: str
    second: str


def split(text: str) -> Asks | None:
    """The message's two questions, when it asks two ("...and why r they doing this"); None for one."""
    plain = normalize(text, 500)
    for found in _SPLIT.finditer(plain):
        first, second = plain[:found.start()].strip(" ?,"), plain[found.end():].strip(" ?,")
        if len(first.split()) < _MIN_FIRST_WORDS or len(second.split()) < _MIN_WORDS:
            continue
        # a question first (asked with a question word, or ended by "?"): not "if no deal, is it monday?" or
        # "the ECEs in kindergarten, are they cupe too"
        asked = "?" in found.group() or _STARTS_ASKING.match(first) is not None
        if asked and not _SAME_AGAIN.match(first) and not _SAME_AGAIN.match(second) and not _LEANS.match(second):
            return Asks(first, second)
    return None


def both_asked(first: Analysis, second: Analysis) -> bool:
    """Whether the two questions, as the matcher read each alone, ask of two different topics, each surely."""
    return first.intent != second.intent and all(a.intent in TOPICS and a.confidence >= SURE for a in (first, second))


def first_line(texts: tuple[str, ...] | list[str]) -> str:
    """An answer's first line."""
    return texts[0].split("\n", 1)[0].strip() if texts and texts[0] else ""


def with_other(texts: tuple[str, ...], line: str, before: bool) -> tuple[str, ...]:
    """The answer to one question with the other's line: `before` its first line (the other was asked first), else
    right after it; the answer as it was when it already says that line."""
    if not texts or not line or line in texts[0].split("\n"):
        return texts
    first, _, rest = texts[0].partition("\n")
    joined = f"{line}\n{texts[0]}" if before else f"{first}\n{line}" + (f"\n{rest}" if rest else "")
    return (joined, *texts[1:])
