"""Signing in to the staff web page: one-time links, sessions, CSRF, and every route refused without them."""

from __future__ import annotations

from datetime import timedelta

from adapters.web.auth import COOKIE, OPEN_PATHS
from bot.admin.web_link import LINK_TTL, sign_in_link
from knowledge.store import utcnow
from knowledge.web_access import WebAccess, digest
from tests.adapters.web.conftest import ADMIN, PARENT, TDSB_STAFF, sign_in, token_of
from tests.conftest import message


def _routes(app) -> list[tuple[str, str]]:
    found = []
    for route in app.router.routes():
        info = route.resource.get_info()
        path = info.get("path") or info.get("formatter", "")
        if route.method in ("GET", "POST") and path not in OPEN_PATHS:
            found.append((route.method, path.replace("{board}", "tdsb").replace("{id}", "1")))
    return found


async def test_every_route_without_a_session_is_refused(client):
    routes = _routes(client.server.app)
    assert {path for _, path in routes} >= {"/", "/board/tdsb", "/asking", "/audit", "/teach", "/undo", "/confirm",
                                             "/broadcast", "/broadcast/1/progress"}
    for method, path in routes:
        response = await client.request(method, path, data={"csrf": "x"} if method == "POST" else None)
        assert response.status == 401, (method, path)
        assert "Send /web to the bot" in await response.text()
    client.session.cookie_jar.update_cookies({COOKIE: "made-up"})
    assert (await client.get("/")).status == 401


async def test_a_link_signs_in_once_and_its_token_is_stored_hashed(client, store):
    link = sign_in_link(store, "http://127.0.0.1:8080", "test", TDSB_STAFF)
    token = token_of(link)
    assert link.startswith("http://127.0.0.1:8080/signin?token=")
    stored = store.conn.execute("SELECT hash FROM web_links").fetchall()
    assert stored == [(digest(token),)] and token not in str(stored)

    page = await client.get(link.replace("http://127.0.0.1:8080", ""))
    assert page.status == 200 and "test:777" in await page.text()  # seeing the page does not use the link
    signed = await client.post("/signin", data={"token": token}, allow_redirects=False)
    assert signed.status == 303 and signed.headers["Location"] == "/"
    cookie = signed.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie
    assert (await client.get("/")).status == 200

    again = await client.post("/signin", data={"token": token})
    assert again.status == 403 and "used already" in await again.text()
    assert (await client.get(f"/signin?token={token}")).status == 403


async def test_an_expired_or_made_up_link_is_refused(client, store):
    token = "expired-token-of-a-test"
    WebAccess(store).add_link(token, "test", TDSB_STAFF, utcnow() - LINK_TTL - timedelta(seconds=1), LINK_TTL)
    assert (await client.get(f"/signin?token={token}")).status == 403
    assert (await client.post("/signin", data={"token": token})).status == 403
    assert (await client.post("/signin", data={"token": "nothing-like-it"})).status == 403
    assert (await client.get("/")).status == 401


async def test_a_form_without_the_sessions_csrf_token_changes_nothing(client, store):
    csrf = await sign_in(client, store, TDSB_STAFF)
    form = {"status": "closed", "start": "2019-10-07", "note": "Closed Monday"}
    for data in (form, {**form, "csrf": "wrong"}, {**form, "csrf": csrf[:-1]}):
        response = await client.post("/board/tdsb/status", data=data)
        assert response.status == 403 and "Form refused" in await response.text()
    assert store.admin.latest_pending("test", TDSB_STAFF) is None
    assert (await client.post("/board/tdsb/status", data={**form, "csrf": csrf})).status == 200
    assert store.admin.latest_pending("test", TDSB_STAFF)["state"] == "pending"


async def test_signing_out_ends_the_session(client, store):
    csrf = await sign_in(client, store, ADMIN)
    assert (await client.post("/signout", data={"csrf": csrf})).status == 200
    assert (await client.get("/")).status == 401


async def test_a_person_without_a_role_sees_nothing(client, store):
    token = token_of(sign_in_link(store, "http://127.0.0.1:8080", "test", PARENT))
    await client.post("/signin", data={"token": token})
    response = await client.get("/")
    assert response.status == 403 and "no staff role" in await response.text()


async def test_the_cookie_is_secure_behind_https(bot, store):
    from aiohttp.test_utils import TestClient, TestServer

    from adapters.web.app import make_app

    app = make_app(bot, bot.settings.replace("web", url="https://staff.example.org"))
    async with TestClient(TestServer(app)) as client:
        token = token_of(sign_in_link(store, "https://staff.example.org", "test", ADMIN))
        signed = await client.post("/signin", data={"token": token}, allow_redirects=False)
        assert "Secure" in signed.headers["Set-Cookie"]
        assert "default-src 'none'" in signed.headers["Content-Security-Policy"]


def test_web_in_a_private_chat_gives_staff_a_link_and_nobody_else(bot, store):
    reply = bot.handle(message("/web", user=TDSB_STAFF))[0].text
    assert "http://127.0.0.1:8080/signin?token=" in reply and "10 minutes" in reply
    token = reply.split("token=")[1].split()[0]
    assert WebAccess(store).link_holder(token, utcnow()) == ("test", TDSB_STAFF)
    assert "http" not in bot.handle(message("/web", user=PARENT))[0].text
    from bot.messages import ChatKind

    in_group = bot.handle(message("/web", user=TDSB_STAFF, chat="g1", kind=ChatKind.GROUP))
    assert all("token=" not in r.text for r in in_group)
