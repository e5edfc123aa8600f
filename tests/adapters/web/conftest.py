"""The staff web page under aiohttp's test server: the real app, store and Bot on a copy of the test database.

test:1 is a province admin, test:777 TDSB staff, test:888 PDSB staff (by settings), as in tests/admin.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from aiohttp.test_utils import TestClient, TestServer

from adapters.web.app import make_app
from bot.admin.web_link import sign_in_link
from bot.settings import Settings

ADMIN, TDSB_STAFF, PDSB_STAFF, PARENT = "1", "777", "888", "p1"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
PENDING = re.compile(r'name="pending" value="(\d+)"')


@pytest.fixture
def settings(settings) -> Settings:
    return settings.replace("roles", province_admins=("test:1",), board_staff=("test:777=tdsb", "test:888=pdsb"))


@pytest.fixture
async def client(bot):
    async with TestClient(TestServer(make_app(bot))) as client:
        yield client


def token_of(link: str) -> str:
    return parse_qs(urlparse(link).query)["token"][0]


async def sign_in(client: TestClient, store, user: str) -> str:
    """Sign `user` (a test: id) in by a one-time link, as a browser would; returns the session's CSRF token."""
    token = token_of(sign_in_link(store, "http://127.0.0.1:8080", "test", user))
    assert (await client.get(f"/signin?token={token}")).status == 200
    response = await client.post("/signin", data={"token": token})
    assert response.status == 200, await response.text()  # followed to the boards page
    return CSRF.search(await response.text()).group(1)
