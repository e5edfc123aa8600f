"""Broadcasts from the web page: compose (`/broadcast`), preview and confirm as /broadcast in chat, then a
progress page (`/broadcast/ID`) whose bar follows ``GET /broadcast/ID/progress`` (JSON) while the worker
delivers.

The plan is chat's (`broadcast_plan`: the board checked against the person's rights, each language's text
exactly as recipients get it, the recipients per platform and language); /confirm queues it in the
outbox with its audit row and wakes the delivery worker of `schoolbot serve`. The progress comes from the
outbox's counts (`Outbox.progress`); the rate is measured between two polls of this process.
"""

from __future__ import annotations

import time
from dataclasses import replace

from aiohttp import web

from adapters.web import acting
from adapters.web.acting import Outcome
from adapters.web.auth import staff_of
from adapters.web.html import Markup, field, join, link, select, table, tag, textarea
from adapters.web.html import form as html_form
from adapters.web.keys import ADMIN, FIRST_SEEN
from adapters.web.pages import preview_page, refused, respond
from bot.admin.broadcasting import broadcast_plan
from bot.admin.plans import BroadcastPlan
from bot.broadcast import Progress
from bot.text import plain, split_text
from knowledge.model import ALL_BOARDS

SHOWN = 20  # recent broadcasts listed

# The only script of the page: poll the progress endpoint once a second and move the bar; without it the
# page still shows the counts as of its loading (and a link to reload).
SCRIPT = """
(function () {
  var box = document.getElementById("progress");
  if (!box) { return; }
  function show(p) {
    var bar = document.getElementById("bar");
    bar.max = Math.max(p.total, 1);
    bar.value = p.done;
    Object.keys(p.shown).forEach(function (key) {
      var cell = document.getElementById("p-" + key);
      if (cell) { cell.textContent = p.shown[key]; }
    });
    if (!p.finished) { setTimeout(poll, 1000); }
  }
  function poll() {
    fetch(box.getAttribute("data-url"), {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.json(); }).then(show)
      .catch(function () { setTimeout(poll, 3000); });
  }
  poll();
})();
"""


def _mine(staff, progress: Progress | None) -> bool:
    return progress is not None and staff.rights.may_manage(progress.board)


def compose_form(admin, staff) -> Markup:
    boards = sorted(admin.knowledge().boards.values(), key=lambda b: b.name.casefold())
    choices = [(b.id, b.name) for b in boards if staff.rights.may_manage(b.id)]
    if staff.rights.province:
        choices.insert(0, (ALL_BOARDS, "All boards (every subscriber)"))
    fields = join((field("To the subscribers of", select("board", choices)),
                   field("In English", textarea("english", rows=4)),
                   field("En français (optional: French subscribers get the English text without it)",
                         textarea("french", rows=4))))
    return html_form("/broadcast", staff.csrf, fields, "Preview")


async def broadcasts(request: web.Request) -> web.Response:
    admin, staff = request.app[ADMIN], staff_of(request)
    rows = [(link(f"/broadcast/{p.id}", f"#{p.id}"), p.created[:16].replace("T", " "), p.board, p.author, p.state,
             f"{p.done_count:,} of {p.total:,}", f"{p.delivered:,} / {p.failed:,} / {p.blocked:,}")
            for p in admin.outbox.recent(100) if staff.rights.may_manage(p.board)][:SHOWN]
    body = join((compose_form(admin, staff), tag("h2", "Recent broadcasts"),
                 table(("#", "Created", "Board", "By", "State", "Done", "Delivered / failed / blocked"), rows)
                 if rows else tag("p", "No broadcast yet.")))
    return respond(request, "Broadcast", body)


async def preview(request: web.Request) -> web.Response:
    """Chat's broadcast plan from the form, previewed exactly as recipients will read it, with their counts."""
    admin, staff = request.app[ADMIN], staff_of(request)
    posted = await request.post()
    english, french = (str(posted.get(name, "")).strip() for name in ("english", "french"))
    body = "\n".join(part for part in ((f"en: {english}" if french else english) if english else "",
                                       f"fr: {french}" if french else "") if part)

    def plan(msg) -> Outcome:
        made = broadcast_plan(admin, msg, staff.rights, str(posted.get("board", "")), body)
        if made.recipients.total == 0:
            return Outcome(f"Nobody is subscribed to {made.board}'s updates: nothing to send.", status=409)
        shown = acting.propose_plan(admin, msg, made)
        return replace(shown, text=shown.text + "\n\n" + on_each_platform(made, admin.settings))
    return preview_page(request, "Broadcast", acting.attempt(admin, staff, plan), "/broadcast")


def on_each_platform(plan: BroadcastPlan, settings) -> str:
    """How the text arrives on each platform of its recipients: in one message, or in parts at its limit."""
    from adapters.platforms import PLATFORMS

    limits = {p.name: p.limits(settings).max_chars for p in PLATFORMS}
    lines = []
    for platform, chats in plan.recipients.platforms:
        limit = limits.get(platform)
        parts = max(len(split_text(plain(text), limit)) for text in (plan.text, plan.text_fr)) if limit else 1
        arrives = "one message" if parts == 1 else f"{parts} messages (its limit is {limit:,} characters)"
        lines.append(f"On {platform} ({chats:,} chats): {arrives}, plain text, no mentions.")
    return "\n".join(lines)


def numbers(request: web.Request, p: Progress) -> dict:
    """The counts of a broadcast, with the rate and time left measured since this process first saw it."""
    seen = request.app[FIRST_SEEN].setdefault(p.id, (time.monotonic(), p.done_count))
    elapsed, sent = time.monotonic() - seen[0], p.done_count - seen[1]
    rate = sent / elapsed if elapsed > 0.5 and sent > 0 else 0.0
    percent = 100 if p.total == 0 else int(100 * p.done_count / p.total)
    left = ("-" if p.done else f"{int(p.remaining / rate) + 1} s" if rate else "waiting for the worker"
            if p.remaining else "0 s")
    shown = {"state": p.state, "percent": f"{percent}%", "delivered": f"{p.delivered:,}", "failed": f"{p.failed:,}",
             "blocked": f"{p.blocked:,}", "pending": f"{p.remaining:,}", "total": f"{p.total:,}",
             "rate": f"{rate:,.0f}/s" if rate else "-", "left": left}
    return {"id": p.id, "board": p.board, "state": p.state, "total": p.total, "done": p.done_count,
            "delivered": p.delivered, "failed": p.failed, "blocked": p.blocked, "pending": p.remaining,
            "percent": percent, "rate": round(rate, 1), "finished": p.done, "shown": shown}


def _progress_of(request: web.Request) -> Progress | web.Response:
    number = request.match_info["id"]
    progress = request.app[ADMIN].outbox.progress(int(number)) if number.isdigit() else None
    if progress is None:
        return refused(request, 404, f"There is no broadcast #{number}.")
    if not _mine(staff_of(request), progress):
        return refused(request, 403, f"Broadcast #{progress.id} went to {progress.board}, not one of your boards.")
    return progress


async def progress_page(request: web.Request) -> web.Response:
    progress = _progress_of(request)
    if isinstance(progress, web.Response):
        return progress
    now = numbers(request, progress)
    cells = [("Delivered", "delivered"), ("Failed", "failed"), ("Blocked", "blocked"), ("Pending", "pending"),
             ("Of", "total"), ("Rate", "rate"), ("Time left", "left"), ("State", "state")]
    counts = join(tag("tr", tag("th", label, scope="row") + tag("td", now["shown"][key], id=f"p-{key}"))
                  for label, key in cells)
    bar = Markup(f'<progress id="bar" max="{max(progress.total, 1)}" value="{progress.done_count}"></progress> ')
    body = join((
        tag("div", bar + tag("span", now["shown"]["percent"], id="p-percent"), id="progress",
            data_url=f"/broadcast/{progress.id}/progress"),
        Markup(f'<table class="counts">{counts}</table>'),
        tag("h2", "Text sent"), tag("div", progress.body, class_="said"),
        tag("p", link(f"/broadcast/{progress.id}", "Reload") + " · " + link("/broadcast", "All broadcasts")),
        Markup('<script src="/progress.js"></script>'),
    ))
    return respond(request, f"Broadcast #{progress.id} to {progress.board}", body)


async def progress_json(request: web.Request) -> web.Response:
    progress = _progress_of(request)
    if isinstance(progress, web.Response):
        return web.json_response({"error": "not shown"}, status=progress.status)
    return web.json_response(numbers(request, progress))


async def script(request: web.Request) -> web.Response:
    return web.Response(text=SCRIPT, content_type="application/javascript")
