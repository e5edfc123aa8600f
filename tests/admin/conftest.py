"""Admin fixtures: test:1 is a province admin, test:777 TDSB staff, test:888 PDSB staff (by settings)."""

from __future__ import annotations

import pytest

from bot.settings import Settings
from tests.conftest import message

ADMIN, TDSB_STAFF, PDSB_STAFF, PARENT = "1", "777", "888", "p1"


@pytest.fixture
def settings(settings) -> Settings:
    return settings.replace("roles", province_admins=("test:1",), board_staff=("test:777=tdsb", "test:888=pdsb"))


@pytest.fixture
def said(bot):
    """said(text, user) -> the reply text, through Bot.handle, as a private message from `user`."""

    def _said(text: str, user: str = PARENT, **kwargs) -> str:
        return "\n".join(r.text for r in bot.handle(message(text, user=user, **kwargs)))

    return _said
