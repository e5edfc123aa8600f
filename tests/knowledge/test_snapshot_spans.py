"""The knowledge's queries are kept per span between the times of its entries: the same as asked afresh."""

from __future__ import annotations

from datetime import timedelta

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
                          list(knowledge.packs.values()))
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
