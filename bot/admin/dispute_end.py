"""/enddispute: a province admin ends a whole dispute (a pack) from chat; /undo reopens it.

The end is a staff-made entry (knowledge.model.PackEnd) that overrides the pack header's
`ended` and `end_text` from the moment it is confirmed, so answers put it first at once and
drop the notes of strikes to come (bot.timeliness), statuses said before it stop speaking for
later days (knowledge.snapshot), and `kb export PACK` writes it into the header. Loading the
pack's file again keeps it, like every entry made in chat.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, time

from bot.admin.changes import Admin, applies, undoes
from bot.admin.statuses import new_id
from bot.admin.parsing import Denied, UsageProblem, entry_dict, parse_date_phrase, rest, tokens, word
from bot.admin.permissions import PROVINCE, staff_command
from bot.messages import Incoming
from bot.replies import say
from bot.roles import Rights
from bot.timeliness import day_text, ended_line
from knowledge.model import ALL_BOARDS, PackEnd
from knowledge.packs import LIMITS

USAGE = (
    "/enddispute [PACK] DATE[: TEXT] [| fr: TEXTE] - the whole dispute has ended (province admins)\n"
    "  PACK: an active pack (default: the one staff changes go into); DATE: today or a day before it\n"
    "  TEXT: what parents are told first (default: the job action ended on DATE; schools are open as usual)\n"
    "  e.g. /enddispute nov 20: The job action ended on Nov 20 with a tentative deal; schools are open as usual.\n"
    "  /undo reopens it")


def _texts(text: str) -> tuple[str, str]:
    """'English | fr: French' -> (English, French), quotes around either taken off."""
    english, _, french = text.partition("|")
    label, colon, value = french.partition(":")
    if colon and label.strip().lower() in ("fr", "french", "français", "francais"):
        french = value

    def bare(part: str) -> str:
        part = part.strip()
        for left, right in (('"', '"'), ("“", "”"), ("«", "»"), ("'", "'")):
            if len(part) > 1 and part.startswith(left) and part.endswith(right):
                return part[1:-1].strip()
        return part

    return bare(english), bare(french)


@staff_command("enddispute", USAGE, PROVINCE)
def enddispute(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    knowledge, lang = admin.knowledge(), admin.language(msg)
    if not knowledge.packs:
        return admin.say(msg, "enddispute_no_pack")
    found = tokens(argument)
    index, pack = 0, admin.store.staff_pack()
    if found and word(found[0].group(0)) in knowledge.packs:
        index, pack = 1, word(found[0].group(0))
    today = admin.at(msg).date()
    day = parse_date_phrase(found, index, today)
    if day is None:
        raise UsageProblem(admin.say(msg, "enddispute_which_day", packs=", ".join(knowledge.packs)))
    ended, (text, french) = day[0], _texts(rest(argument, found, index + day[1]))
    info = knowledge.packs[pack]
    if ended > today:
        raise UsageProblem(admin.say(msg, "enddispute_future", day=day_text(ended, lang)))
    if info.started is not None and ended < info.started:
        raise UsageProblem(admin.say(msg, "enddispute_before_start", day=day_text(info.started, lang)))
    for value, key in ((text, "end_text"), (french, "end_text_fr")):
        if len(value) > LIMITS[key]:
            raise UsageProblem(admin.say(msg, "enddispute_too_long", length=len(value), limit=LIMITS[key]))
    moment = admin.at(msg) if ended == today else datetime.combine(ended, time(23, 59), tzinfo=admin.bot.tz)
    action = {"kind": "enddispute", "pack": pack, "board": ALL_BOARDS, "ended": moment.isoformat(),
              "text": text, "fr": french}
    now = knowledge.pack_at(info, msg.time)
    lines = [admin.say(msg, "enddispute_preview", title=_title(info, lang), day=day_text(ended, lang)),
             ended_line(replace(info, ended=moment, end_text=text, end_text_fr=french), lang),
             admin.say(msg, "enddispute_what_changes", day=day_text(ended, lang))]
    if now.ended is not None and now.ended <= msg.time:
        lines.append(admin.say(msg, "enddispute_replaces", day=day_text(now.ended, lang)))
    return admin.propose(msg, action, "\n".join(lines))


def _title(info, language: str) -> str:
    return info.title_fr if language == "fr" and info.title_fr else info.title


@applies("enddispute")
def apply_enddispute(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    lang = admin.language(msg)
    if not rights.province:
        raise Denied(admin.say(msg, "admin_province_only", command="enddispute"))
    info = admin.knowledge().packs.get(action["pack"])
    if info is None:
        return admin.say(msg, "enddispute_not_active", pack=action["pack"])
    before = admin.knowledge().pack_at(info)
    at = admin.at(msg)
    end = PackEnd(new_id("end", info.id, at), datetime.fromisoformat(action["ended"]), action["text"], at,
                  admin.author(msg), fr={"text": action["fr"]} if action["fr"] else None, pack=info.id)
    admin.store.put_pack_end(end)
    ended = replace(info, ended=end.ended, end_text=end.text, end_text_fr=action["fr"] or "")
    change = admin.record(msg, "enddispute", end.id, ALL_BOARDS, lambda language: say(
        "change_enddispute", language, pack=info.id, day=day_text(end.ended, language),
        said=ended_line(ended, language)))
    earlier = ({"ended": before.ended.isoformat(), "end_text": before.end_text} if before.ended else None)
    admin.audit(msg, "enddispute", info.id, earlier, entry_dict(end))
    return admin.say(msg, "enddispute_done", title=_title(info, lang), day=day_text(end.ended, lang), change=change)


@undoes("enddispute")
def undo_enddispute(admin: Admin, msg: Incoming, rights: Rights, change: dict) -> str:
    """Reopen: the end is marked undone (nothing is deleted); an end the pack's file states stays."""
    end = next((e for e in admin.knowledge().pack_ends if e.id == change["entry_id"]), None)
    if end is None:
        return admin.say(msg, "enddispute_gone")
    after = replace(end, retracted=admin.at(msg))
    admin.store.put_pack_end(after)
    admin.audit(msg, "undo enddispute", end.pack, entry_dict(end), entry_dict(after))
    knowledge = admin.knowledge()
    still = knowledge.pack_at(knowledge.packs[end.pack], msg.time) if end.pack in knowledge.packs else None
    if still is not None and still.ended is not None and still.ended <= msg.time:
        return admin.say(msg, "enddispute_undone_still_ended", summary=admin.summary(msg, change),
                         day=day_text(still.ended, admin.language(msg)))
    return admin.say(msg, "enddispute_undone", summary=admin.summary(msg, change))
