"""`schoolbot serve` stopped by SIGTERM leaves everything in schoolbot.db itself (its write-ahead log
checkpointed), so a plain copy of that one file is a whole backup."""

from __future__ import annotations

import asyncio
import shutil
import signal
import sqlite3
import sys

from telegram_support import PARENT, REPO, answered


async def test_serve_checkpoints_at_a_clean_stop(fake, serve_env, tmp_path):
    db = serve_env["SCHOOLBOT_DATABASE_PATH"]
    serve_env["SCHOOLBOT_TELEGRAM_TOKEN"] = fake.token
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "adapters.cli", "serve", "--telegram", cwd=str(REPO), env=serve_env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    reader = None
    try:
        texts = await answered(fake, fake.private("/subscribe tdsb", user_id=PARENT), PARENT)
        assert "official updates" in texts[0]
        reader = sqlite3.connect(db)  # another program has it open: SQLite alone would leave the WAL at close
        reader.execute("SELECT count(*) FROM packs").fetchone()
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    try:
        assert proc.returncode == 0, err.decode()
        alone = tmp_path / "alone.db"
        shutil.copyfile(db, alone)  # the database file by itself, no -wal
        copy = sqlite3.connect(alone)
        assert copy.execute("SELECT count(*) FROM subscriptions WHERE chat_id = ?", (str(PARENT),)).fetchone()[0] == 1
        copy.close()
    finally:
        if reader is not None:
            reader.close()
