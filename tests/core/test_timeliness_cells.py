"""What frames an answer in time is worked out once per cell between the times that matter: the same as afresh."""

from __future__ import annotations

from datetime import timedelta

from bot import timeliness


def test_coverage_and_stale_strike_notes_at_any_time_are_what_they_are_afresh(store):
    knowledge = store.knowledge()
    board = knowledge.board("tdsb")
    base = [t for e in (*knowledge.timeline, *knowledge.statuses, *knowledge.facts, *knowledge.cards)
            for t in (e.published, getattr(e, "retracted", None)) if t is not None]
    base += [info.ended for info in knowledge.packs.values() if info.ended is not None]
    days = 14
    times = {t + shift for t in base for shift in (timedelta(0), timedelta(days=days))}
    for at in sorted({t + timedelta(seconds=s) for t in times for s in (-1, 0, 1)}):
        for who in (None, board):
            assert timeliness.coverage(knowledge, who, at, days) == \
                timeliness._coverage(knowledge, who.id if who else None, at, days), at
        assert timeliness._strike_notes(knowledge, at) == timeliness._stale_strike_notes(knowledge, at), at
