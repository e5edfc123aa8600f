"""The staff web page's pages: what each person sees, by URL too; what parents typed shown as text; and staff
actions through chat's plans (preview, confirm, audit, undo), answered by the bot afterwards."""

from __future__ import annotations

import html
import io
import json

from adapters.console import run_console
from tests.adapters.web.conftest import ADMIN, PARENT, PDSB_STAFF, PENDING, TDSB_STAFF, sign_in
from tests.conftest import THURSDAY, message

STATUS_FORM = {"status": "closed", "start": "2019-10-07", "until": "2019-10-08", "note": "Schools closed Mon & Tue"}


async def test_board_staff_see_and_change_only_their_boards_even_by_url(client, store):
    csrf = await sign_in(client, store, TDSB_STAFF)
    boards = await (await client.get("/")).text()
    assert 'href="/board/tdsb"' in boards and 'href="/board/pdsb"' not in boards
    assert (await client.get("/board/tdsb")).status == 200
    other = await client.get("/board/pdsb")
    assert other.status == 403 and "Peel District School Board is not one of your boards" in await other.text()
    assert (await client.get("/board/nowhere")).status == 404

    changed = await client.post("/board/pdsb/status", data={**STATUS_FORM, "csrf": csrf})
    assert changed.status == 403
    assert store.admin.latest_pending("test", TDSB_STAFF) is None
    taught = await client.post("/teach", data={"csrf": csrf, "board": "pdsb", "question": "Is the pool open?",
                                               "answer": "No."})
    assert taught.status == 403 and store.admin.latest_pending("test", TDSB_STAFF) is None
    everyone = await client.post("/teach", data={"csrf": csrf, "board": "all", "question": "Is the pool open?",
                                                 "answer": "No."})
    assert everyone.status == 403


async def test_a_province_admin_sees_every_board_of_the_pack(client, store):
    await sign_in(client, store, ADMIN)
    page = await (await client.get("/")).text()
    assert page.count('href="/board/') == 72
    assert "Today (Thu Oct 03)" in page and "Next school day (Fri Oct 04)" in page
    assert "4 days old (stale)" in page  # the Sept 29 news, older than [answers] stale_after_days
    assert (await client.get("/board/pdsb")).status == 200


async def test_what_a_parent_typed_is_shown_as_text(client, bot, store):
    question = "<script>alert('x')</script> can my kid bring a ukulele to tdsb zorblax fair"
    bot.handle(message(question, user=PARENT))
    await sign_in(client, store, ADMIN)
    for path in ("/asking", "/board/tdsb"):
        page = await (await client.get(path)).text()
        assert "<script>" not in page, path
        assert html.escape(question, quote=True) in page, path


async def test_set_a_status_confirm_it_see_it_in_the_audit_and_undo_it(client, bot, store):
    csrf = await sign_in(client, store, TDSB_STAFF)
    preview = await client.post("/board/tdsb/status", data={**STATUS_FORM, "csrf": csrf})
    text = await preview.text()
    assert preview.status == 200 and "Preview: Toronto District School Board (TDSB) from Monday, October 7" in text
    stored = store.admin.latest_pending("test", TDSB_STAFF)["action"]
    assert (stored["kind"], stored["board"], stored["status"]) == ("status", "tdsb", "closed")  # chat's plan

    done = await client.post("/confirm", data={"csrf": csrf, "pending": PENDING.search(text).group(1)})
    assert done.status == 200 and "Done: Toronto District School Board (TDSB) is now closed" in await done.text()
    assert "closed" in bot.handle(message("is school open monday in tdsb?"))[0].text.lower()
    again = await client.post("/confirm", data={"csrf": csrf, "pending": PENDING.search(text).group(1)})
    assert again.status == 409

    audit = await (await client.get("/audit?kind=setstatus&board=tdsb")).text()
    assert "test:777 (web page)" in audit and html.escape("Schools closed Mon & Tue") in audit
    row = store.audit_rows(1)[0]
    assert (row["action"], row["name"]) == ("setstatus", "web page")
    change = store.admin.latest_change("test", TDSB_STAFF)["id"]
    undo = await client.post("/undo", data={"csrf": csrf, "change": str(change)})
    undo_text = await undo.text()
    assert undo.status == 200 and f"undo change #{change}" in undo_text
    undone = await client.post("/confirm", data={"csrf": csrf, "pending": PENDING.search(undo_text).group(1)})
    assert "Undone: change #" in await undone.text()
    assert store.audit_rows(1)[0]["action"] == "undo status"
    assert "Schools closed Mon" not in bot.handle(message("is school open monday in tdsb?"))[0].text


async def test_board_staff_cannot_undo_another_boards_change(client, bot, store):
    bot.handle(message("/setstatus pdsb closed from monday: Closed", user=PDSB_STAFF))
    bot.handle(message("/confirm", user=PDSB_STAFF))
    change = store.admin.latest_change("test", PDSB_STAFF)["id"]
    csrf = await sign_in(client, store, TDSB_STAFF)
    assert f'name="change" value="{change}"' not in await (await client.get("/audit")).text()
    refused = await client.post("/undo", data={"csrf": csrf, "change": str(change)})
    assert refused.status == 403 and store.admin.latest_pending("test", TDSB_STAFF) is None


async def test_a_bad_form_is_refused_in_words_and_cancel_drops_a_preview(client, store):
    csrf = await sign_in(client, store, TDSB_STAFF)
    late = await client.post("/board/tdsb/status", data={**STATUS_FORM, "until": "2019-10-01", "csrf": csrf})
    assert late.status == 400
    unknown = await client.post("/board/tdsb/status", data={**STATUS_FORM, "status": "sunny", "csrf": csrf})
    assert unknown.status == 400 and "sunny" in await unknown.text()
    preview = await (await client.post("/board/tdsb/status", data={**STATUS_FORM, "csrf": csrf})).text()
    cancelled = await client.post("/cancel", data={"csrf": csrf, "pending": PENDING.search(preview).group(1)})
    assert cancelled.status == 200 and store.admin.latest_pending("test", TDSB_STAFF)["state"] == "cancelled"


async def test_teach_an_answer_from_what_parents_ask_and_the_console_answers_with_it(client, bot, store):
    question = "can kids bring their ukulele to the zorblax fair at tdsb"
    unsure = bot.handle(message(question, user=PARENT))[0]
    assert unsure.meta.get("intent") == "unknown" or "not sure" in unsure.text.lower()
    csrf = await sign_in(client, store, TDSB_STAFF)
    asking = await (await client.get("/asking")).text()
    assert question in asking and 'action="/teach"' in asking

    answer = "Yes: ukuleles are welcome at the zorblax fair, in a case."
    preview = await client.post("/teach", data={"csrf": csrf, "board": "tdsb", "question": question,
                                                "answer": answer, "source": "TDSB letter of Oct 3"})
    text = await preview.text()
    assert preview.status == 200 and html.escape(answer) in text
    assert store.admin.latest_pending("test", TDSB_STAFF)["action"]["kind"] == "card"  # /teach's action
    done = await client.post("/confirm", data={"csrf": csrf, "pending": PENDING.search(text).group(1)})
    assert done.status == 200
    assert json.loads(store.audit_rows(1)[0]["after"])["answer"] == answer

    out = io.StringIO()
    run_console(bot, start=THURSDAY, board="tdsb", stdin=io.StringIO(question + "\n"), stdout=out)
    assert "ukuleles are welcome" in out.getvalue()


async def test_questions_per_hour_are_drawn_by_topic_and_by_board_without_colour(client, bot, store):
    for text in ("is school open monday in tdsb?", "is tdsb open tomorrow", "<b>will peel buses run</b>"):
        bot.handle(message(text, user=PARENT))
    await sign_in(client, store, ADMIN)
    page = await (await client.get("/asking?days=3")).text()
    assert page.count("<svg") == 2 and "Questions per hour by topic" in page and "by board" in page
    assert 'fill="currentColor"' in page and "#" not in page.split("<svg", 1)[1].split("</svg>")[0]  # no colours
    assert "school_status" in page and ">TDSB</text>" in page
    assert "2019-10-03 09h: 2</title>" in page  # the two TDSB questions of Thursday 9:00, as a tooltip
    assert "<b>" not in page


async def test_add_an_event_and_end_a_phase_as_chat_does(client, bot, store):
    csrf = await sign_in(client, store, TDSB_STAFF)
    form = {"csrf": csrf, "kind": "bargaining", "day": "2019-10-04", "text": "Talks resume at <10 a.m.>"}
    assert (await client.post("/board/tdsb/event", data={**form, "everywhere": "yes"})).status == 403  # all: province
    preview = await client.post("/board/tdsb/event", data=form)
    text = await preview.text()
    assert preview.status == 200 and "Talks resume at &lt;10 a.m.&gt;" in text
    assert store.admin.latest_pending("test", TDSB_STAFF)["action"]["kind"] == "event"
    await client.post("/confirm", data={"csrf": csrf, "pending": PENDING.search(text).group(1)})
    assert store.audit_rows(1)[0]["action"] == "addevent"
    assert "Talks resume at &lt;10 a.m.&gt;" in await (await client.get("/board/tdsb")).text()
    assert (await client.post("/phase", data={"csrf": csrf, "phase": "work_to_rule"})).status == 403

    await client.post("/signout", data={"csrf": csrf})
    csrf = await sign_in(client, store, ADMIN)
    assert "End a phase (province admins)" in await (await client.get("/")).text()
    preview = await (await client.post("/phase", data={"csrf": csrf, "phase": "work_to_rule"})).text()
    assert "work-to-rule" in preview.lower()
    done = await client.post("/confirm", data={"csrf": csrf, "pending": PENDING.search(preview).group(1)})
    assert done.status == 200 and store.audit_rows(1)[0]["action"] == "endphase"
