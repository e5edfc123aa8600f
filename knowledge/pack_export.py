"""A whole pack written back out as the YAML mapping `kb load` reads: its header (with an end stated in
chat by /enddispute), and every entry loaded from its file or made by staff in chat (undone ones left out),
so nothing made in chat is lost."""

from __future__ import annotations

from knowledge.model import card_topic
from knowledge.packs import header_to_yaml
from knowledge.rows import read_knowledge


def export_whole_pack(store, pack_id: str) -> dict:
    """The pack as a mapping of sections (raises KeyError for a pack not in the database)."""
    knowledge = read_knowledge(store.conn, [pack_id])
    info = knowledge.packs.get(pack_id)
    if info is None:
        raise KeyError(pack_id)

    def keep(entries):
        return [e for e in entries if e.retracted is None]

    def fr(entry, out: dict) -> dict:
        if entry.fr:
            out["fr"] = dict(entry.fr)
        return out

    own_topics = {t.id for t in info.topics}
    out: dict = {"pack": header_to_yaml(knowledge.pack_at(info))}  # with the end staff stated in chat
    out["sources"] = [fr(s, _drop_empty({"file": s.file, "title": s.title, "published": s.published.isoformat(),
                                          "approximate": s.approximate or None}))
                      for s in sorted(knowledge.sources.values(), key=lambda s: s.published)]
    out["facts"] = [fr(f, {"id": f.id, "topic": f.pack_topic or f.topic, "text": f.text, "source": f.source,
                           "published": f.published.isoformat()}) for f in knowledge.facts]
    out["cards"] = [_drop_empty({
        "id": c.id, "topic": card_topic(c.pack_topic or c.topic, own_topics), "question": c.question, "answer": c.answer, "details": c.details,
        "phrasings": list(c.phrasings), "boards": list(c.boards), "source": c.source,
        "published": c.published.isoformat(), "valid_until": c.valid_until.isoformat() if c.valid_until else None,
        "replaces": c.replaces, "fr": c.fr}) for c in keep(knowledge.cards)]
    out["statuses"] = [fr(s, _drop_empty({
        "id": s.id, "board": s.board, "from": s.start.isoformat(), "until": s.until.isoformat() if s.until else None,
        "status": s.status, "summary": s.summary, "source": s.source, "published": s.published.isoformat()}))
        for s in keep(knowledge.statuses)]
    out["withdrawn_services"] = [fr(s, _drop_empty({
        "id": s.id, "workers": s.workers, "service": s.service, "phase": s.phase,
        "from": s.start.isoformat() if s.start else None, "until": s.until.isoformat() if s.until else None,
        "ended": s.ended.isoformat() if s.ended else None, "source": s.source, "published": s.published.isoformat()}))
        for s in keep(knowledge.services)]
    out["timeline"] = [fr(e, _drop_empty({
        "id": e.id, "kind": e.kind, "date": e.day.isoformat(), "text": e.text, "source": e.source,
        "published": e.published.isoformat(), "approximate": e.approximate or None})) for e in keep(knowledge.timeline)]
    return {key: value for key, value in out.items() if value or key == "sources"}


def _drop_empty(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if v not in (None, "", [], {})}
