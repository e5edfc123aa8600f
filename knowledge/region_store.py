"""Regions in the database: the `regions` table, each board's region, and which regions the active packs are in.

A region is loaded from its file (`schoolbot kb load REGION.yaml`) with its
boards, which replace only that region's boards. The shipped region (the
`[knowledge] region` file) is the default: a pack that names no region, or a
region not loaded, is in it; it is loaded again on an upgrade only while its
stored copy is the shipped one, never over a region an operator loaded.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

from knowledge.model import Board
from knowledge.regions import Region, region_from_json, region_key, region_to_json

SHIPPED = "shipped"  # the origin of a region loaded from the file the bot ships with


def put_region(store, region: Region, boards: tuple[Board, ...], origin: str, default: bool = False) -> None:
    """Store a validated region and make `boards` its boards, in one transaction (ValueError when a board id
    is another region's). `default`: it is the region of packs that name none."""
    with store.transaction():
        store.replace_boards(boards, region.id)
        store.conn.execute(
            "INSERT INTO regions (id, header, origin, loaded) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
            "header = excluded.header, origin = excluded.origin, loaded = excluded.loaded",
            (region.id, json.dumps(region_to_json(region), ensure_ascii=False), origin,
             datetime.now(timezone.utc).isoformat(timespec="seconds")))
        if default:
            store.conn.execute("INSERT INTO meta (key, value) VALUES ('default_region', ?) "
                               "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (region.id,))


def region_origin(conn, region_id: str) -> str | None:
    """Where a stored region was loaded from ("shipped", or a file's path); None when it is not stored."""
    row = conn.execute("SELECT origin FROM regions WHERE id = ?", (region_id,)).fetchone()
    return row[0] if row else None


def stored_regions(conn) -> dict[str, Region]:
    return {rid: region_from_json(json.loads(header))
            for rid, header in conn.execute("SELECT id, header FROM regions ORDER BY id")}


def default_region_id(conn) -> str:
    row = conn.execute("SELECT value FROM meta WHERE key = 'default_region'").fetchone()
    return row[0] if row else ""


def region_of_pack(named: str, regions: dict[str, Region], default: str) -> str:
    """The id of the region a pack's `region:` names, else the default region's."""
    key = region_key(named) if named else ""
    return key if key in regions else default


def regions_in_use(conn, packs) -> tuple[list[Region], str]:
    """The regions of the active packs, in the packs' order (the first decides the time zone and the default
    language), and the default region's id. No region stored: none (a database from before regions)."""
    regions = stored_regions(conn)
    default = default_region_id(conn)
    ids: list[str] = []
    for pack in packs:
        rid = region_of_pack(getattr(pack, "region", ""), regions, default)
        if rid and rid not in ids:
            ids.append(rid)
    if not ids and default in regions:
        ids.append(default)
    return [regions[i] for i in ids if i in regions], default
