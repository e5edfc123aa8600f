"""Broadcasting from the staff web page: compose, chat's preview with the recipients, confirm, then the
progress endpoint while the delivery worker sends to 1,000 subscribers."""

from __future__ import annotations

import asyncio

from bot.broadcast.worker import DeliveryWorker
from bot.messages import SendLimits, SendOutcome, SendStatus
from tests.adapters.web.conftest import PDSB_STAFF, PENDING, TDSB_STAFF, sign_in
from tests.admin.test_admin import subscribe_parents
from tests.conftest import message


class Wire:
    """The platform's end of the line: every message is delivered, with a pause the event loop can use."""

    platform = "test"
    limits = SendLimits()

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        self.sent.append((chat_id, text))
        await asyncio.sleep(0.001)
        return SendOutcome(SendStatus.SENT)


async def test_a_broadcast_to_1000_subscribers_and_its_progress_while_it_is_delivered(client, store, settings):
    subscribe_parents(store, "tdsb", 1000)
    store.subscribe("test", "fr-parent", "tdsb", "private", "fr-parent", "fr")
    csrf = await sign_in(client, store, TDSB_STAFF)
    assert 'action="/broadcast"' in await (await client.get("/broadcast")).text()
    preview = await client.post("/broadcast", data={"csrf": csrf, "board": "tdsb", "english": "Buses run late.",
                                                    "french": "Les autobus sont en retard."})
    text = await preview.text()
    assert preview.status == 200 and "1,001 recipients" in text
    assert "----- in English (1,000) -----" in text and "----- in French (1) -----" in text
    assert "On test (1,001 chats): one message" in text
    assert store.admin.latest_pending("test", TDSB_STAFF)["action"]["kind"] == "broadcast"  # chat's plan
    done = await client.post("/confirm", data={"csrf": csrf, "pending": PENDING.search(text).group(1)})
    assert done.status == 200 and "Broadcast #1 queued for 1,001 recipients" in await done.text()

    first = await (await client.get("/broadcast/1/progress")).json()
    assert (first["total"], first["pending"], first["done"], first["finished"]) == (1001, 1001, 0, False)
    page = await (await client.get("/broadcast/1")).text()
    assert '<progress id="bar" max="1001" value="0">' in page and 'src="/progress.js"' in page

    wire = Wire()
    delivering = asyncio.create_task(DeliveryWorker(store, wire, settings, poll_interval=0.01).run(once=True))
    seen = []
    while True:
        now = await (await client.get("/broadcast/1/progress")).json()
        seen.append(now["done"])
        if now["finished"]:
            break
        await asyncio.sleep(0.02)
    await delivering
    assert seen == sorted(seen) and seen[-1] == 1001 and len(set(seen)) > 2  # it moved while it was polled
    assert (now["delivered"], now["failed"], now["blocked"], now["pending"], now["percent"]) == (1001, 0, 0, 0, 100)
    assert now["shown"]["percent"] == "100%" and now["shown"]["left"] == "-"
    french = [t for chat, t in wire.sent if chat == "fr-parent"]
    assert french and "Les autobus sont en retard." in french[0]


async def test_board_staff_see_only_their_boards_broadcasts(client, bot, store):
    subscribe_parents(store, "pdsb", 2)
    bot.handle(message("/broadcast pdsb Closed tomorrow.", user=PDSB_STAFF))
    bot.handle(message("/confirm", user=PDSB_STAFF))
    csrf = await sign_in(client, store, TDSB_STAFF)
    assert 'href="/broadcast/1"' not in await (await client.get("/broadcast")).text()
    assert (await client.get("/broadcast/1")).status == 403
    assert (await client.get("/broadcast/1/progress")).status == 403
    assert (await client.get("/broadcast/99/progress")).status == 404
    refused = await client.post("/broadcast", data={"csrf": csrf, "board": "pdsb", "english": "Hello"})
    assert refused.status == 403 and store.admin.latest_pending("test", TDSB_STAFF) is None
    nobody = await client.post("/broadcast", data={"csrf": csrf, "board": "tdsb", "english": "Hello"})
    assert nobody.status == 409 and "Nobody is subscribed" in await nobody.text()
    empty = await client.post("/broadcast", data={"csrf": csrf, "board": "tdsb", "english": ""})
    assert empty.status == 400


async def test_the_preview_says_how_a_long_text_arrives_on_each_platform(client, store):
    for chat in range(3):
        store.subscribe("discord", f"dm:{chat}", "tdsb", "private", str(chat))
        store.subscribe("telegram", str(chat), "tdsb", "private", str(chat))
    csrf = await sign_in(client, store, TDSB_STAFF)
    long = " ".join(["Schools are open Monday with reduced cleaning."] * 60)  # about 2,800 characters
    text = await (await client.post("/broadcast", data={"csrf": csrf, "board": "tdsb", "english": long})).text()
    assert "On discord (3 chats): 2 messages (its limit is 2,000 characters)" in text
    assert "On telegram (3 chats): one message" in text
