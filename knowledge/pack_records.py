"""The knowledge packs in the database: loading a validated pack file, the packs and which are active, removing one.

A part of :class:`knowledge.store.Store` (it relies on the store's connection, ``transaction``, ``db`` and ``_row``),
as :mod:`knowledge.people` and :mod:`knowledge.messaging` are.
"""

from __future__ import annotations

import json

from knowledge import schema
from knowledge.model import KnowledgeFile
from knowledge.records import utcnow


class PackRecords:
    def load_file(self, kfile: KnowledgeFile) -> dict[str, int]:
        """Replace a validated pack's file-loaded entries by the file's; its staff-made entries stay.

        Loading the same file twice changes nothing; no other pack's entries change.
        A new pack becomes active only when no pack is active (a fresh database).
        """
        info = kfile.pack
        pack, origin = info.id, kfile.path
        counts = {}
        sections = (("sources", kfile.sources, "file"), ("facts", kfile.facts, "id"), ("statuses", kfile.statuses, "id"),
                    ("withdrawn_services", kfile.withdrawn_services, "id"), ("timeline", kfile.timeline, "id"),
                    ("cards", kfile.cards, "id"))
        with self.transaction():
            for table, entries, key in sections:
                if table == "sources":
                    staff = " UNION ".join(f'SELECT source FROM "{t}" WHERE origin = \'staff\''
                                           for t in schema.KNOWLEDGE_TABLES[1:])
                    self.conn.execute(f"DELETE FROM sources WHERE pack = ? AND file NOT IN ({staff})", (pack,))
                else:
                    self.conn.execute(f'DELETE FROM "{table}" WHERE pack = ? AND origin IS NOT \'staff\'', (pack,))
                rows = [self._row(e, origin) for e in entries]
                if table == "sources":
                    for row in rows:
                        row.pop("origin")
                self.db[table].upsert_all(rows, pk=("pack", key))
                counts[table] = len(entries)
            self._put_pack(info, origin)
        return counts

    def _put_pack(self, info, origin: str) -> None:
        from knowledge.packs import header_to_json

        active = self.conn.execute("SELECT active FROM packs WHERE id = ?", (info.id,)).fetchone()
        if active is None:
            active = (0 if self.active_pack_ids() else 1,)
        self.conn.execute(
            "INSERT INTO packs (id, title, header, active, origin, loaded) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET title = excluded.title, header = excluded.header, origin = excluded.origin, "
            "loaded = excluded.loaded",
            (info.id, info.title, json.dumps(header_to_json(info), ensure_ascii=False), active[0], origin,
             utcnow().isoformat()))

    def packs(self) -> list[dict]:
        """Every pack in the database: id, title, active place (0 = not active), origin, counts, and
        `ended` (ISO text, or None): when the dispute ended, as staff last stated it in chat or its file says."""
        out = []
        for pack_id, title, active, origin, header in self.conn.execute(
                "SELECT id, title, active, origin, header FROM packs ORDER BY id").fetchall():
            counts = {t: self.conn.execute(f'SELECT COUNT(*) FROM "{t}" WHERE pack = ?', (pack_id,)).fetchone()[0]
                      for t in schema.KNOWLEDGE_TABLES}
            stated = self.conn.execute("SELECT ended FROM pack_ends WHERE pack = ? AND retracted IS NULL "
                                       "ORDER BY published DESC, rowid DESC LIMIT 1", (pack_id,)).fetchone()
            ended = stated[0] if stated else (json.loads(header or "{}") or {}).get("ended")
            out.append({"id": pack_id, "title": title, "active": active, "origin": origin, "counts": counts,
                        "ended": ended})
        return out

    def active_pack_ids(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT id FROM packs WHERE active > 0 ORDER BY active, id")]

    def use_packs(self, pack_ids: list[str]) -> None:
        """Make exactly these packs active, in this order (the first gets staff changes)."""
        known = {r[0] for r in self.conn.execute("SELECT id FROM packs")}
        unknown = [p for p in pack_ids if p not in known]
        if unknown:
            raise KeyError(", ".join(unknown))
        with self.transaction():
            self.conn.execute("UPDATE packs SET active = 0")
            for place, pack_id in enumerate(dict.fromkeys(pack_ids), start=1):
                self.conn.execute("UPDATE packs SET active = ? WHERE id = ?", (place, pack_id))

    def remove_pack(self, pack_id: str) -> dict[str, int]:
        """Delete a pack and every entry of it (staff-made ones too). Returns what was deleted."""
        with self.transaction():
            if self.conn.execute("SELECT 1 FROM packs WHERE id = ?", (pack_id,)).fetchone() is None:
                raise KeyError(pack_id)
            counts = {t: self.conn.execute(f'DELETE FROM "{t}" WHERE pack = ?', (pack_id,)).rowcount
                      for t in schema.KNOWLEDGE_TABLES}
            self.conn.execute("DELETE FROM pack_ends WHERE pack = ?", (pack_id,))
            self.conn.execute("DELETE FROM packs WHERE id = ?", (pack_id,))
        return counts
