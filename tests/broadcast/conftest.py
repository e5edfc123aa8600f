"""Fixtures for the broadcast tests: settings with staff roles and a database of their own."""

from __future__ import annotations

import pytest


@pytest.fixture
def settings(tmp_path):
    from bot.settings import Settings

    return (
        Settings()
        .replace("database", path=str(tmp_path / "schoolbot.db"))
        .replace("roles", province_admins=("test:1", "telegram:1"), board_staff=("test:777=tdsb", "telegram:777=tdsb"))
    )
