"""The withdrawn services of a dispute, as an answer: the items asked about, a phase's examples, or the list.

A phase's services are said as stopped once it has begun and as planned while it is to come ("If the full
strike begins: ..."), each phase under its pack's name for it (work-to-rule, walkout).
"""

from __future__ import annotations

from datetime import datetime

from bot.answers import cite_many
from bot.asked import asks_for_list, overlap, searchable, words_of
from bot.replies import ENGLISH, Voice, shape
from bot.timeliness import pack_of, phase_begun, phase_heading, phase_name, phase_order
from knowledge.model import Board, WithdrawnService
from knowledge.snapshot import Knowledge


# Words every service question has: they do not say which service is asked about.
_GENERIC = words_of(
    "services service stopped stop stopping work working workers worker cupe education strike striking withdrawn "
    "pulled job action happening running doing done going cut cuts affected changes change tasks else other support staff anymore longer "
    "arrete arretes arretent travail travailleurs greve scfp education touche touches "
    "retire retires retiree retirees coupe coupes coupees exactement quels quelles fait font plus encore"
)


def _service_words(service: WithdrawnService, voice: Voice) -> str:
    return f"{searchable(service, 'workers', voice)} {searchable(service, 'service', voice)}"


def withdrawn_services(knowledge: Knowledge, at: datetime, board: Board | None, question: str = "", *,
                       full: bool = False, voice: Voice = ENGLISH) -> str | None:
    services: list[WithdrawnService] = knowledge.services_withdrawn(at)  # the file's order: most important first
    if not services:
        return None
    lang = voice.language
    asked = words_of(question)
    asked -= _GENERIC
    named = [s for s in services if overlap(asked, _service_words(s, voice))]
    if named and not full:  # "are the custodians still cleaning?": the items asked about
        # the closest first; of equally close ones, the first announced (a list follows the file's order)
        named.sort(key=lambda s: (-overlap(asked, _service_words(s, voice)), s.published, s.id))
        first, *more = named[:3]
        later = first.phase != phase_order(knowledge, [s.phase for s in services])[0]
        lead = _phase_line(knowledge, first, at, "service_stopped", voice, later=later,
                           workers=voice.text(first, "workers"), service=voice.text(first, "service"))
        support = [voice.say("also_service", workers=voice.text(s, "workers"), service=voice.text(s, "service")) for s in more]
        return shape(lead, support, cite_many(knowledge, named[:3], lang))
    by_phase: dict[str, list[WithdrawnService]] = {}
    for service in services:
        by_phase.setdefault(service.phase, []).append(service)
    if not full and not asks_for_list(question):
        lines = []
        for number, phase in enumerate(phase_order(knowledge, list(by_phase))):
            if number == 0:
                items = "; ".join(f"{voice.text(s, 'workers')}{voice.colon}{voice.text(s, 'service')}"
                                  for s in by_phase[phase][:3])
                key = "phase_examples_all" if _stops_all(knowledge, by_phase[phase][0]) else "phase_examples"
                lines.append(_phase_line(knowledge, by_phase[phase][0], at, key, voice, items=items))
            elif phase_begun(knowledge, by_phase[phase][0], at) is not True:  # a later phase not begun
                lines.append(voice.say("phase_first_item_planned", phase=phase_name(knowledge, by_phase[phase][0], lang),
                                       item=voice.text(by_phase[phase][0], "service")))
            else:
                lines.append(voice.say("phase_first_item", heading=phase_heading(knowledge, by_phase[phase][0], lang),
                                       item=voice.text(by_phase[phase][0], "service")))
        lines.append(voice.say("send_more"))
        return shape(lines[0], lines[1:], cite_many(knowledge, services, lang))
    lines = []
    for number, phase in enumerate(phase_order(knowledge, list(by_phase))):
        lines.append(_phase_line(knowledge, by_phase[phase][0], at, "phase_list_title", voice, later=number > 0))
        lines.extend(_by_workers(by_phase[phase], voice))
    ended = knowledge.services_ended(at)
    if ended:
        lines.append(voice.say("back_to_normal"))
        lines.extend(_by_workers(ended, voice))
    if board is not None:
        lines.append(voice.say("board_may_add", website=board.website))
    lines.append(cite_many(knowledge, services, lang))
    return "\n".join(lines)


def _phase_line(knowledge: Knowledge, of: WithdrawnService, at: datetime, key: str, voice: Voice, *,
                later: bool = False, **fields) -> str:
    """A line about the services of `of`'s phase: wording `key` under its heading ("During the work-to-rule")
    once the phase has begun; `key`_planned, naming the phase, while it is still to come (nothing stopped yet):
    before its start date, or, for a `later` phase (after the first), while the pack gives it none."""
    lang = voice.language
    begun = phase_begun(knowledge, of, at)
    if begun is False or (later and begun is None):
        planned = f"{key}_later" if later and key == "phase_list_title" else f"{key}_planned"  # not "nothing stopped"
        return voice.say(planned, phase=phase_name(knowledge, of, lang), **fields)
    return voice.say(key, heading=phase_heading(knowledge, of, lang), **fields)


def _stops_all(knowledge: Knowledge, service: WithdrawnService) -> bool:
    """Whether the service's phase stops all work (a strike, a walkout: the pack's `stops: all`)."""
    phase = pack_of(knowledge, service).phase(service.phase)
    return phase is not None and phase.stops == "all"


def _by_workers(services: list[WithdrawnService], voice: Voice = ENGLISH) -> list[str]:
    """One line per group of workers: '- custodians: sweeping hallways; cutting grass'."""
    groups: dict[str, list[str]] = {}
    for service in services:
        groups.setdefault(voice.text(service, "workers"), []).append(voice.text(service, "service"))
    return [f"- {workers}{voice.colon}{'; '.join(items)}" for workers, items in groups.items()]
