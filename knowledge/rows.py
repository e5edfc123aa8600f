"""Knowledge entries to table rows and back (the store's reading and writing of the knowledge tables)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict
from datetime import date, datetime
from typing import Any

from knowledge.model import Board, Card, Fact, PackEnd, Source, Status, TimelineEvent, WithdrawnService
from knowledge.packs import PackInfo, header_from_json
from knowledge.region_store import regions_in_use
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
    row.pop("pack_topic", None)
    if getattr(entry, "pack_topic", ""):  # read back as its intent: written as the pack's topic
        row["topic"] = entry.pack_topic
    row["origin"] = origin
    return row


def _query(conn, sql: str, params=()) -> Iterator[dict]:
    """Rows as dicts, on the plain sqlite3 connection: reading needs no sqlite-utils (kept off `ask`'s start-up)."""
    cursor = conn.execute(sql, params)
    names = [d[0] for d in cursor.description]
    for row in cursor:
        yield dict(zip(names, row, strict=True))


def active_packs(conn) -> list[PackInfo]:
    """The headers of the active packs, in the order `kb use` gave them."""
    return [header_from_json(json.loads(r["header"]))
            for r in _query(conn, "SELECT header FROM packs WHERE active > 0 ORDER BY active, id")]


def read_knowledge(conn, pack_ids: list[str] | None = None) -> Knowledge:
    """The boards, and every entry of the active packs, read into a snapshot.

    A pack's own topic ("bill_28") is read as the intent it maps onto, so
    answering needs to know nothing about packs; the topic as written is kept
    in `pack_topic`.
    """
    packs = active_packs(conn) if pack_ids is None else [
        header_from_json(json.loads(r["header"])) for r in _query(
            conn, f"SELECT header FROM packs WHERE id IN ({', '.join('?' * len(pack_ids))})", pack_ids)]
    names = [p.id for p in packs] or [""]
    where = f"pack IN ({', '.join('?' * len(names))})"
    intent_of = {(p.id, t.id): t.intent for p in packs for t in p.topics}

    def rows(table: str, order: str):
        return _query(conn, f'SELECT * FROM "{table}" WHERE {where} ORDER BY {order}', names)

    def topic(r) -> tuple[str, str]:
        intent = intent_of.get((r["pack"], r["topic"]))
        return (intent, r["topic"]) if intent else (r["topic"], "")

    regions, default = regions_in_use(conn, packs)
    in_use = {r.id for r in regions}
    boards = [
        Board(r["id"], r["name"], r["system"], r["language"], r["website"],
              tuple(json.loads(r["aliases"] or "[]")), tuple(json.loads(r["municipalities"] or "[]")), r["short"] or "")
        for r in _query(conn, "SELECT * FROM boards ORDER BY id")
        if not in_use or (r["region"] or default) in in_use  # the active packs' regions' boards only
    ]
    sources = [Source(r["file"], r["title"], _time(r["published"]), bool(r["approximate"]), _json(r["fr"]), r["pack"])
               for r in rows("sources", "file")]
    facts = [Fact(r["id"], *topic(r)[:1], r["text"], r["source"], _time(r["published"]), _json(r["fr"]), r["pack"],
                  topic(r)[1]) for r in rows("facts", "published, id")]
    statuses = [
        Status(r["id"], r["board"], _day(r["start"]), _day(r["until"]), r["status"], r["summary"], r["source"],
               _time(r["published"]), r["author"] or "", _time(r["retracted"]), _json(r["fr"]), r["pack"])
        for r in rows("statuses", "published, rowid")  # at equal times, the later in the file (loaded in its order)
    ]
    services = [
        WithdrawnService(r["id"], r["workers"], r["service"], r["phase"], r["source"], _time(r["published"]),
                         _time(r["ended"]), r["author"] or "", _time(r["retracted"]), _json(r["fr"]), r["pack"],
                         _day(r["start"]), _day(r["until"]))
        for r in rows("withdrawn_services", "rowid")  # the file's order: most important first
    ]
    events = [
        TimelineEvent(r["id"], r["kind"], _day(r["day"]), r["text"], r["source"], _time(r["published"]),
                      bool(r["approximate"]), r["author"] or "", _time(r["retracted"]), _json(r["fr"]), r["pack"])
        for r in rows("timeline", "day, published, id")
    ]
    cards = [
        Card(r["id"], topic(r)[0], r["question"], r["answer"], r["source"], _time(r["published"]), r["details"] or "",
             tuple(json.loads(r["phrasings"] or "[]")), tuple(json.loads(r["boards"] or "[]")), _time(r["valid_until"]),
             r["replaces"] or "", _json(r["fr"]), r["author"] or "", _time(r["retracted"]), r["pack"], topic(r)[1])
        for r in rows("cards", "published, id")
    ]
    ends = [PackEnd(r["id"], _time(r["ended"]), r["text"] or "", _time(r["published"]), r["author"] or "",
                    _time(r["retracted"]), _json(r["fr"]), r["pack"]) for r in rows("pack_ends", "published, rowid")]
    return Knowledge(boards, sources, facts, statuses, services, events, cards, packs, ends, regions)


def _json(value: str | None):
    return json.loads(value) if value else None
