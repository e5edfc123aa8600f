"""The words staff commands take and say: status words, event kinds and phases, from the built-in
tables (bot.admin.parsing), the active packs and config/wording.yaml."""

from __future__ import annotations

from datetime import date

from bot.admin.parsing import PHASE_WORDS, SHOWN_STATUS_WORDS, STATUS_WORDS
from bot.replies import say, wording
from bot.text import normalize
from knowledge.packs import BUILTIN_STATUSES, LEGACY_PHASES
from knowledge.snapshot import Knowledge


def topic_words(topic: str, language: str = "en") -> str:
    """A topic (an intent, or a pack's own topic) in words: its id in English, wording.yaml's French
    (topic_school_status: 'situation des écoles'); an id with no words is said as it is."""
    key = f"topic_{topic}"
    return say(key, language) if key in wording().texts else topic


def with_dashes(ids) -> dict[str, str]:
    return {name: entry for entry in ids for name in (entry, entry.replace("_", "-"))}


def _own_statuses(knowledge: Knowledge) -> list[str]:
    return [s.id for info in knowledge.packs.values() for s in info.statuses]


def status_choices(knowledge: Knowledge) -> dict[str, str]:
    """The words /setstatus takes: the built-in ones and every active pack's own status ids."""
    return {**STATUS_WORDS, **with_dashes([*BUILTIN_STATUSES, *_own_statuses(knowledge)])}


def status_ids(knowledge: Knowledge) -> list[str]:
    """Every status a board may be set to, as stored: the built-in ones, then the active packs' own."""
    return list(dict.fromkeys([*BUILTIN_STATUSES, *_own_statuses(knowledge)]))


def shown_statuses(knowledge: Knowledge) -> dict[str, list[str]]:
    """The status words an error names, per language: the built-in ones in that language, then the packs' own."""
    own = [status.replace("_", "-") for status in _own_statuses(knowledge)]
    return {language: [*words, *own] for language, words in SHOWN_STATUS_WORDS.items()}


def phase_choices(knowledge: Knowledge, pack: str) -> dict[str, str]:
    """The words /addservice and /endphase take for the phases of the pack staff changes go into."""
    info = knowledge.packs.get(pack)
    phases = info.phases if info else LEGACY_PHASES
    table = with_dashes([p.id for p in phases])
    table.update({p.name.lower().replace(" ", "-"): p.id for p in phases})
    french = {p.name_fr.lower().replace(" ", "-"): p.id for p in phases if p.name_fr}  # "grève-du-zèle"
    table.update({**french, **{normalize(name): phase for name, phase in french.items()}})
    if info is None or {p.id for p in phases} == {p.id for p in LEGACY_PHASES}:
        table.update(PHASE_WORDS)
    return table


def current_phase(knowledge: Knowledge, pack: str, today: date) -> str:
    """The phase of the pack whose dates hold today (a phase without a start date never does), else its first."""
    info = knowledge.packs.get(pack)
    phases = info.phases if info else LEGACY_PHASES
    for phase in phases:
        if phase.start is not None and phase.start <= today and (phase.until is None or today <= phase.until):
            return phase.id
    return phases[0].id


def event_kind(kind: str, language: str) -> str:
    """A timeline kind in words (wording.yaml: event_kind_bargaining -> 'talks' / 'négociations')."""
    key = f"event_kind_{kind}"
    return say(key, language) if key in wording().texts else kind.replace("_", " ")


def phase_name(knowledge: Knowledge, pack: str, phase_id: str, language: str) -> str:
    """A phase in the reader's words ("grève du zèle"), from the pack's header."""
    info = knowledge.packs.get(pack)
    phase = next((p for p in (info.phases if info else LEGACY_PHASES) if p.id == phase_id), None)
    if phase is None:
        return phase_id.replace("_", " ")
    return phase.words(language)
