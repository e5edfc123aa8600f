"""The knowledge's queries are kept per span between the times of its entries: the same as asked afresh."""

from __future__ import annotations

from datetime import UTC, timedelta

from knowledge.snapshot import Knowledge, _visible


def _times(knowledge: Knowledge):
    """Every time that matters to a query, and a second either side."""
    entries = (*knowledge.timeline, *knowledge.statuses, *knowledge.facts, *knowledge.services)
    moments = {t for e in entries for t in (e.published, getattr(e, "retracted", None), getattr(e, "ended", None))
               if t is not None}
    return sorted({m + timedelta(seconds=s) for m in moments for s in (-1, 0, 1)})


def test_every_query_finds_at_any_time_what_it_finds_afresh(store):
    knowledge = store.knowledge()
    days = sorted({s.start for s in knowledge.statuses if s.start is not None})
    boards = ["", "tdsb", "pdsb", "all"]
    for at in _times(knowledge):
        fresh = Knowledge(list(knowledge.boards.values()), list(knowledge.sources.values()), knowledge.facts,
                          knowledge.statuses, knowledge.services, knowledge.timeline, knowledge.cards,
                          list(knowledge.packs.values()), knowledge.pack_ends)
        assert knowledge.events(at) == [e for e in knowledge.timeline if _visible(e.published, e.retracted, at)]
        assert knowledge.facts_about("childcare", at) == [f for f in knowledge.facts
                                                          if f.topic == "childcare" and f.published <= at]
        assert knowledge.services_withdrawn(at) == fresh._services_withdrawn(at)
        assert knowledge.services_ended(at) == fresh._services_ended(at)
        assert knowledge.boards_with_status(at) == {s.board for s in knowledge.statuses
                                                    if _visible(s.published, s.retracted, at)}
        for day in days[::3]:
            for board in boards:
                assert knowledge.status_for(board, day, at) == fresh._status_for(board, day, at)


def test_what_a_query_returns_can_be_changed_by_its_caller_without_changing_the_next_answer(store):
    knowledge = store.knowledge()
    at = max(e.published for e in knowledge.timeline)
    events = knowledge.events(at)
    events.clear()
    assert knowledge.events(at)


def test_times_are_placed_among_moments_as_datetimes_would_place_them():
    from bisect import bisect_left, bisect_right
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from knowledge.snapshot import Moments

    toronto = ZoneInfo("America/Toronto")
    base = datetime(2019, 10, 3, 9, 0, tzinfo=toronto)
    times = [base + timedelta(microseconds=m) for m in (0, 1, 2, 1_000_000, 86_400_000_000)]
    times += [t.astimezone(UTC) for t in times[:2]]  # the same instants in another zone
    moments = Moments(times)
    ordered = sorted(times)
    for at in [*times, base - timedelta(microseconds=1), base + timedelta(microseconds=3), base + timedelta(days=400)]:
        assert moments.after(at) == bisect_right(ordered, at)
        assert moments.cell(at) == (bisect_left(ordered, at), bisect_right(ordered, at))
    naive = Moments([datetime(2019, 10, 3), datetime(2019, 10, 4)])  # no zone: compared as datetimes
    assert naive.after(datetime(2019, 10, 3, 12)) == 1
