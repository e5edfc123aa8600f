"""`schoolbot serve --telegram` and `schoolbot deliver` as an operator runs them: exit status and one-line errors."""

from __future__ import annotations

import asyncio
import signal
import sys

from telegram_support import PARENT, REPO, answered, schoolbot

from tests.fakes.telegram import BOT_USERNAME


async def test_serve_without_a_token_is_one_clear_line(serve_env):
    code, out, err = await schoolbot("serve", "--telegram", env=serve_env)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "telegram" in err.lower() and "SCHOOLBOT_TELEGRAM_TOKEN" in err
    code, out, err = await schoolbot("serve", env=serve_env)
    assert code == 2 and err.count("\n") == 1 and "no platform token" in err


async def test_deliver_without_a_token_is_one_clear_line(serve_env):
    code, out, err = await schoolbot("deliver", "--once", "--platform", "telegram", env=serve_env)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "[telegram] token" in err


async def test_a_rejected_token_is_one_line_and_exit_1_from_serve_and_deliver(fake, serve_env):
    serve_env["SCHOOLBOT_TELEGRAM_TOKEN"] = "999:WRONG-secret-token"
    for args in (("serve", "--quiet"), ("deliver", "--once")):  # serve with no flag: the configured platforms
        code, out, err = await schoolbot(*args, env=serve_env)
        assert code == 1, args
        assert err.count("\n") == 1 and err.startswith("schoolbot: telegram: ") and "rejected the token" in err
        assert "SCHOOLBOT_TELEGRAM_TOKEN" in err
        assert "WRONG-secret-token" not in err + out


async def test_serve_reports_a_409_conflict_and_exits(fake, serve_env):
    serve_env["SCHOOLBOT_TELEGRAM_TOKEN"] = fake.token
    fake.fail("getUpdates", 409, times=100)
    code, out, err = await schoolbot("serve", "--telegram", "--quiet", env=serve_env)
    assert code == 1
    assert err.count("\n") == 1 and "409 Conflict" in err
    assert fake.token not in err + out


async def test_serve_answers_then_stops_on_sigterm(fake, serve_env):
    serve_env["SCHOOLBOT_TELEGRAM_TOKEN"] = fake.token
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "adapters.cli", "serve", "--telegram", cwd=str(REPO), env=serve_env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        update = fake.private("/whoami", user_id=PARENT)
        await answered(fake, update, PARENT)
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()
    assert fake.confirmed(update["update_id"])
    assert fake.token not in err.decode()
    assert "polling as @" + BOT_USERNAME in err.decode()
    assert "Unclosed" not in err.decode()


async def test_loading_the_cli_does_not_import_platform_libraries():
    code = ("import sys, adapters.cli; adapters.cli.build_parser(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'telegram', 'discord', 'aiohttp', 'httpx'}))")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", code, cwd=str(REPO),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    assert out.decode().strip() == "[]"
