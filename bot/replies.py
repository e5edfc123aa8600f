"""The shape and the fixed wording of replies.

Answer first: the first sentence answers the question (a phone's notification
preview shows about 160 characters), then at most two supporting lines, then
the source and as-of time. The rest waits for "more".
"""

from __future__ import annotations

import re

from bot.commands import command, help_lines

PREVIEW_CHARS = 160
MAX_SUPPORT = 2

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")


def sentences(text: str) -> list[str]:
    """The sentences of a text ("Sept. 30" and "8 a.m." do not end one)."""
    return [s.strip() for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip()]


def first_sentence(text: str) -> str:
    parts = sentences(text)
    return parts[0] if parts else ""


def rest_sentences(text: str) -> str:
    return " ".join(sentences(text)[1:])


def shape(lead: str, support: list[str] | tuple[str, ...] = (), source: str = "") -> str:
    """Answer, at most two supporting lines, the source line."""
    lines = [lead, *[s for s in support if s][:MAX_SUPPORT]]
    if source:
        lines.append(source)
    return "\n".join(line for line in lines if line)


# --------------------------------------------------------------- fixed texts
EXAMPLES = ('"is school open monday in peel?"', '"are EAs on strike too?"')

HELP_INTRO = """I answer parents' questions about the 2019 Ontario education workers' job action, from news reports, naming the source and date of each answer.

Ask me, for example:
- "is school open monday in peel?"
- "are EAs on strike too?"
- "what services stopped?"
- "do I need child care?"
- "when could a full strike start?"
- "why are they striking?" / "any news on the talks?"
Then "more", "why?" or "what about tuesday?" follow up on my last answer."""


def help_text() -> str:
    """The full help: what to ask, then one line per command from the command registry."""
    lines = [line for line in help_lines("en") if _listed(line)]
    return HELP_INTRO + "\n\nCommands:\n" + "\n".join(lines)


def _listed(line: str) -> bool:
    found = command(line[1:].split(" ", 1)[0])
    return found is None or found.menu


UNKNOWN_TEXT = (
    "Sorry, I'm not sure what you're asking. I answer questions about school during the job action: "
    'try "is school open monday in peel?" or "what services stopped?", or send /help.'
)

ASK_BOARD_TEXT = (
    "Which school board? Send its name, abbreviation or your city, for example "
    '"TDSB", "Peel", "York Catholic" or "Mississauga".'
)


def welcome(subscribed: bool) -> str:
    if subscribed:
        return "You're welcome!"
    return "You're welcome! Send /subscribe to get your board's official updates."


def hello() -> str:
    return f"Hi! Ask me about school during the job action, for example {EXAMPLES[0]} or {EXAMPLES[1]}"


def goodbye() -> str:
    return "Bye! Ask me again any time."


def offer(questions: list[str]) -> str:
    """'Do you mean: 1. ... 2. ...?' for the questions of the cards offered."""
    listed = "\n".join(f"{n}. {q.rstrip('?')}?" for n, q in enumerate(questions, 1))
    return f"Do you mean:\n{listed}\nSend 1 or 2."


# ------------------------------------------------------------ platform words
_WORDS = {
    # platform -> (whose admins manage a shared chat, the shared chat, a one-to-one chat)
    "discord": ("server", "channel", "DM"),
}
_DEFAULT_WORDS = ("group", "group", "private chat")


def admins_word(platform: str) -> str:
    """Whose admins manage a shared chat: 'group' (Telegram), 'server' (Discord)."""
    return _WORDS.get(platform, _DEFAULT_WORDS)[0]


def group_word(platform: str) -> str:
    """What a shared chat is called: 'group' (Telegram), 'channel' (a Discord server's channel)."""
    return _WORDS.get(platform, _DEFAULT_WORDS)[1]


def private_word(platform: str) -> str:
    """What a one-to-one chat is called: 'private chat' (Telegram), 'DM' (Discord)."""
    return _WORDS.get(platform, _DEFAULT_WORDS)[2]
