"""The field converters every config reader shares: each takes a YAML value and returns it checked, or
raises ValueError saying what is wrong (the reader adds the file, the entry and the field)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date, datetime
from typing import Any

from knowledge.reading import shown

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
OFFSET_HINT_ZONE = "America/Toronto"  # the boards' zone: a time with no offset is told the one it has there


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected non-empty text, got {shown(value)}")
    return " ".join(value.split())


def _ident(value: Any) -> str:
    text = _text(value) if not isinstance(value, (int, float)) else str(value)
    if not ID_PATTERN.match(text):
        raise ValueError(f"{shown(text)} is not a valid id (lower-case letters, digits, - _ .)")
    return text


def _one_of(choices: Iterable[str]) -> Callable[[Any], str]:
    allowed = tuple(choices)

    def convert(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"{shown(value)} is not one of: {', '.join(allowed)}")
        return value

    return convert


def _date(value: Any) -> date:
    if isinstance(value, datetime):
        raise ValueError(f"expected a date YYYY-MM-DD, got a time {shown(value)}")
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError as exc:
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
                raise ValueError(f"{shown(value.strip())} is not a real date ({exc})") from None
    raise ValueError(f"expected a date YYYY-MM-DD, got {shown(value)}")


def _time(value: Any) -> datetime:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError as exc:
            problem = f" ({exc})" if "range" in str(exc) or "must be in" in str(exc) else ""
            raise ValueError(f"expected an ISO 8601 time like 2019-10-02T20:00:00-04:00, got {shown(value)}{problem}") from None
    else:
        raise ValueError(f"expected an ISO 8601 time with a UTC offset, got {shown(value)}")
    if moment.tzinfo is None:
        raise ValueError(f"{shown(value)} has no UTC offset (add {_offset_on(moment)}, Toronto's on that day)")
    return moment


def _offset_on(moment: datetime) -> str:
    """The UTC offset of Ontario's time zone at that local time: -04:00 in summer time, -05:00 in winter."""
    from zoneinfo import ZoneInfo

    offset = moment.replace(tzinfo=ZoneInfo(OFFSET_HINT_ZONE)).strftime("%z")
    return f"{offset[:3]}:{offset[3:]}"


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {shown(value)}")
    return value


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise ValueError(f"expected a list of text, got {shown(value)}")
    return tuple(_text(item) for item in value)


def _url(value: Any) -> str:
    text = _text(value)
    if not re.match(r"^https?://[^\s/$.?#].[^\s]*$", text):
        raise ValueError(f"{shown(text)} is not a web address starting with http:// or https://")
    return text
