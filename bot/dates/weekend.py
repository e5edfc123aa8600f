"""Whether a message speaks of the weekend: "this weekend", "week-end", "la fin de semaine", "sat or sun".

The parser (:mod:`bot.dates.parser`) finds the one day a message names; this reads the weekend it may name
instead, as a span of two days.
"""

from __future__ import annotations

from bot.dates.parser import weekday_at
from bot.dates.rules import FR_WEEK, PAIR_SEPS, WEEKEND_WORDS
from bot.dates.tokens import Tokens
from bot.dates.vocabulary import day_word


def _french_weekend(tk: Tokens, k: int) -> bool:
    """Whether "de semaine" (or "de sem", hyphens or not) follows at token k, after "fin"."""
    words = [w for w in tk.words[k:k + 4] if w != "-"]
    return len(words) >= 2 and words[0] == "de" and words[1] in FR_WEEK


def speaks_of_weekend(tk: Tokens) -> bool:
    """Whether the tokens name the weekend (or Saturday and Sunday together)."""
    words, n = tk.words, tk.n
    for i in range(n):
        t = words[i]
        if t in WEEKEND_WORDS:
            return True
        if t == "week" and i + 1 < n:
            k = i + 2 if words[i + 1] == "-" else i + 1
            if tk.word(k) in ("end", "ends"):
                return True
        if t == "fin" and _french_weekend(tk, i + 1):  # Canadian French "la fin de semaine" is the weekend
            return True
        kind, wd = day_word(t)
        if kind == "wd" and wd >= 5 and weekday_at(tk, i) is not None:
            k = i + 1
            if k < n and words[k] == "." and tk.touches(k):
                k += 1
            if k < n and words[k] in PAIR_SEPS:
                m = k + 1
                if m < n and words[m] in ("on", "even", "maybe"):
                    m += 1
                wd2 = weekday_at(tk, m)
                if wd2 is not None and {wd, wd2} == {5, 6}:
                    return True
    return False
