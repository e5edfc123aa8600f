"""`schoolbot web-link ID` and `schoolbot serve --web [HOST:]PORT`: the operator's link, and the page served
beside the bot in one process."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from adapters.cli import main
from adapters.cli.web import listen_address
from adapters.errors import UsageError
from adapters.serve import serve
from tests.adapters.telegram.telegram_support import free_port
from tests.adapters.web.conftest import token_of


def test_web_link_prints_a_link_for_staff_only(capsys, settings):
    db = settings.database.path
    assert main(["grant", "--db", db, "console:local", "tdsb"]) == 0
    capsys.readouterr()
    assert main(["web-link", "--db", db, "console:local"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("http://127.0.0.1:8080/signin?token=") and out.count("\n") == 1
    assert "once, within 10 minutes" in err
    assert main(["web-link", "--db", db, "telegram:999"]) == 2
    assert "telegram:999 has no staff role" in capsys.readouterr().err
    assert main(["web-link", "--db", db, "nobody"]) == 2


def test_the_listen_address_defaults_to_this_machine():
    assert listen_address("8080") == ("127.0.0.1", 8080)
    assert listen_address("0.0.0.0:9000") == ("0.0.0.0", 9000)
    assert listen_address("[::1]:9000") == ("::1", 9000)
    for wrong in ("", "host:", "127.0.0.1:99999", "x:y"):
        with pytest.raises(UsageError):
            listen_address(wrong)


async def test_serve_runs_the_page_beside_the_bot_and_stops_with_it(bot, store, settings):
    from bot.admin.web_link import sign_in_link

    bot.settings = settings.replace("roles", province_admins=("test:1",))
    port, stop = free_port(), asyncio.Event()
    served = asyncio.create_task(serve(bot, bot.settings, [], stop=stop, web=("127.0.0.1", port)))
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            for _ in range(100):
                try:
                    response = await session.get(base + "/")
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.05)
            assert response.status == 401
            token = token_of(sign_in_link(store, base, "test", "1"))
            signed = await session.post(base + "/signin", data={"token": token})
            assert signed.status == 200 and "Boards at a glance" in await signed.text()
    finally:
        stop.set()
        await asyncio.wait_for(served, 20)


def test_a_web_broadcasts_report_goes_to_the_persons_private_chat_on_their_platform(store, bot):
    from adapters.web.acting import message
    from adapters.web.auth import Staff
    from bot.admin import Admin
    from bot.roles import Rights
    from knowledge.web_access import WebSession

    admin = Admin(bot)
    for platform, user, chat in (("discord", "42", "dm:42"), ("telegram", "555", "555"), ("console", "local", "local")):
        staff = Staff(WebSession(platform, user, "csrf", bot.clock()), Rights(platform, user, province=True))
        assert message(admin, staff).chat_id == chat
