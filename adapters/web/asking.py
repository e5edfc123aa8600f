"""What parents are asking (`/asking`): the questions the bot could not answer, or barely, and teaching it.

The list is /unanswered's (bot/admin/stats.py: grouped by their normalised words, most frequent first, over
the last days, for the person's boards); each question has a form that teaches an answer card through
/teach's action (`card_action`, its preview, /confirm, its audit row and /undo): once confirmed, the bot
answers that question with it. Below, charts of questions per hour by topic and by board (adapters/web/charts.py).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from aiohttp import web

from adapters.web import acting
from adapters.web.acting import Outcome
from adapters.web.auth import Staff, staff_of
from adapters.web.charts import hourly_chart, hours_between, rows_of
from adapters.web.html import Markup, field, form, hidden, join, select, tag, text_input, textarea
from adapters.web.keys import ADMIN
from adapters.web.pages import one_line, preview_page, respond
from bot.admin.stats import LOW_CONFIDENCE_MARGIN, unanswered
from bot.admin.teaching import card_action, preview_card
from bot.admin.vocabulary import topic_words
from knowledge.model import ALL_BOARDS
from knowledge.overview import questions_per_hour

DAYS = (1, 3, 7, 14, 30)
SHOWN = 30  # questions listed
CHART_DAYS = 7  # at most, in the charts


def board_choices(admin, staff: Staff) -> list[tuple[str, str]]:
    """The boards this person may teach for: every board and 'all' for a province admin, else their own."""
    boards = sorted(admin.knowledge().boards.values(), key=lambda b: b.name.casefold())
    mine = [(b.id, b.name) for b in boards if staff.rights.may_manage(b.id)]
    return [(ALL_BOARDS, "All boards"), *mine] if staff.rights.province else mine


def teach_form(csrf: str, boards: list[tuple[str, str]], question: str) -> Markup:
    fields = join((hidden("question", question),
                   field("Board", select("board", boards)),
                   field("Answer (its first sentence answers the question)", textarea("answer", required=True)),
                   field("More details (optional)", textarea("details", rows=2)),
                   field("Source (optional: where the answer comes from)", text_input("source")),
                   field("Other ways parents ask it (optional, separated by ;)", text_input("phrasings"))))
    return form("/teach", csrf, fields, "Preview")


async def asking(request: web.Request) -> web.Response:
    admin, staff = request.app[ADMIN], staff_of(request)
    wanted = request.query.get("days", "7")
    days = int(wanted) if wanted.isdigit() and int(wanted) in DAYS else 7
    today = admin.bot.clock().date()
    boards = None if staff.rights.province else staff.rights.boards
    low = admin.settings.matcher.min_confidence + LOW_CONFIDENCE_MARGIN
    found = unanswered(admin.store, today, days, boards, low, top=SHOWN)
    choices = board_choices(admin, staff)
    periods = join((tag("a", f"{n} day" + ("s" if n > 1 else ""), href=f"/asking?days={n}") for n in DAYS), " · ")
    intro = tag("p", f"Questions the bot could not answer, or answered with low confidence, in the last {days} "
                     "day(s), most asked first. Teach an answer and the bot gives it from then on. ", class_="note")
    items = join(tag("li", Markup(tag("span", f"{count}×", class_="count") + " " + tag("q", question)
                                  + tag("details", tag("summary", "Teach an answer")
                                        + teach_form(staff.csrf, choices, question))))
                 for count, question in found)
    body = intro + tag("p", periods) + (tag("ol", items) if found else tag("p", "Nothing unanswered: good."))
    return respond(request, "What parents are asking", body + charts(admin, boards, min(days, CHART_DAYS)))


def charts(admin, boards: frozenset[str] | None, days: int) -> Markup:
    """Questions per hour over the last `days` days, by topic and by board (the person's boards only)."""
    now = admin.bot.clock()
    since = now.date() - timedelta(days=days - 1)
    hours = hours_between(datetime.combine(since, time(0), now.tzinfo), now)
    knowledge = admin.knowledge()

    def board_name(board_id: str) -> str:
        board = knowledge.board(board_id)
        return board.display if board else "no board named"

    by_topic = rows_of(questions_per_hour(admin.store, since, boards, "intent"), hours, topic_words)
    by_board = rows_of(questions_per_hour(admin.store, since, boards, "board"), hours, board_name)
    return join((tag("h2", f"Questions per hour, last {days} day(s)"),
                 hourly_chart("Questions per hour by topic", hours, by_topic),
                 hourly_chart("Questions per hour by board", hours, by_board)))


async def teach(request: web.Request) -> web.Response:
    """Read the form into /teach's card and show its preview (Confirm teaches it as /confirm does)."""
    admin, staff = request.app[ADMIN], staff_of(request)
    posted = await request.post()

    def plan(msg) -> Outcome:
        board = str(posted.get("board", ""))
        phrasings = [p.strip() for p in str(posted.get("phrasings", "")).split(";") if p.strip()]
        action = card_action(admin, staff.rights, [board] if board else [], one_line(posted.get("question")),
                             one_line(posted.get("answer")), msg.time.date(), details=one_line(posted.get("details")),
                             phrasings=phrasings, source=one_line(posted.get("source")))
        return acting.propose(admin, msg, action, preview_card(action, admin.language(msg)))
    return preview_page(request, "Teach an answer", acting.attempt(admin, staff, plan), "/asking")
