"""Knowledge entries to table rows and back (the store's reading and writing of the knowledge tables)."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import date, datetime
from typing import Any

from knowledge.model import Board, Card, Fact, Source, Status, TimelineEvent, WithdrawnService
from knowledge.snapshot import Knowledge


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _day(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def row_of(entry: Any, origin: str) -> dict:
    """A model entry as a table row: dates as ISO text, lists as JSON, where it came from."""
    row = asdict(entry)
    for key, value in row.items():
        if isinstance(value, (date, datetime)):
            row[key] = value.isoformat()
        elif isinstance(value, bool):
            row[key] = int(value)
        elif isinstance(value, (tuple, list, dict)):
            row[key] = json.dumps(value, ensure_ascii=False)
    row["origin"] = origin
    return row


def read_knowledge(db) -> Knowledge:
    """Every knowledge table read into a snapshot."""
    boards = [
        Board(r["id"], r["name"], r["system"], r["language"], r["website"],
              tuple(json.loads(r["aliases"] or "[]")), tuple(json.loads(r["municipalities"] or "[]")))
        for r in db["boards"].rows_where(order_by="id")
    ]
    sources = [Source(r["file"], r["title"], _time(r["published"]), bool(r["approximate"])) for r in db["sources"].rows]
    facts = [Fact(r["id"], r["topic"], r["text"], r["source"], _time(r["published"])) for r in db["facts"].rows_where(order_by="published, id")]
    statuses = [
        Status(r["id"], r["board"], _day(r["start"]), _day(r["until"]), r["status"], r["summary"], r["source"],
               _time(r["published"]), r["author"] or "", _time(r["retracted"]))
        for r in db["statuses"].rows_where(order_by="published, id")
    ]
    services = [
        WithdrawnService(r["id"], r["workers"], r["service"], r["phase"], r["source"], _time(r["published"]),
                         _time(r["ended"]), r["author"] or "", _time(r["retracted"]))
        for r in db["withdrawn_services"].rows_where(order_by="published, id")
    ]
    events = [
        TimelineEvent(r["id"], r["kind"], _day(r["day"]), r["text"], r["source"], _time(r["published"]),
                      bool(r["approximate"]), r["author"] or "", _time(r["retracted"]))
        for r in db["timeline"].rows_where(order_by="day, published, id")
    ]
    cards = [
        Card(r["id"], r["topic"], r["question"], r["answer"], r["source"], _time(r["published"]), r["details"] or "",
             tuple(json.loads(r["phrasings"] or "[]")), tuple(json.loads(r["boards"] or "[]")), _time(r["valid_until"]),
             r["replaces"] or "", json.loads(r["fr"]) if r["fr"] else None, r["author"] or "", _time(r["retracted"]))
        for r in db["cards"].rows_where(order_by="published, id")
    ]
    return Knowledge(boards, sources, facts, statuses, services, events, cards)
