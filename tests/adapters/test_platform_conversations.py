"""The console's conversations, on every platform that can be driven as a user would: the console and the toy.

The toy platform (tests/adapters/toy) is added through the registry alone; `serve`
runs it and hands its Sender to the broadcast worker. Each conversation is typed
on each platform and must read the same: exactly the README's on both.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

import adapters.platforms as registry
from adapters.console import run_console
from adapters.serve import serve
from bot.app import build_bot
from bot.broadcast import Outbox
from tests.adapters.toy import Toy
from tests.conftest import THURSDAY

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
USER = "local"  # the console's one user; the toy's user of the same name


def shown(text: str) -> str:
    return "bot> " + text.replace("\n", "\n     ")


def on_console(bot, lines: list[str], until: str | None = None) -> str:
    out = io.StringIO()
    run_console(bot, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    return out.getvalue().split("\n", 1)[1].rstrip("\n")  # after the greeting line


def on_toy(bot, lines: list[str], until: str | None = None) -> str:
    """Type `lines` as the toy's user through `serve`; then, given `until`, wait for a text containing it."""
    return asyncio.run(_on_toy(bot, lines, until))


async def _on_toy(bot, lines: list[str], until: str | None) -> str:
    toy = Toy()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "PLATFORMS", (*registry.PLATFORMS, toy.platform))  # the one line a platform adds
        stop = asyncio.Event()
        serving = asyncio.create_task(serve(bot, bot.settings, ["toy"], stop=stop))
        printed = []
        for line in lines:
            await toy.inbox.put((USER, line))
            await toy.inbox.join()
            printed.append(f"you> {line}")
            while not toy.sent.empty():
                printed.append(shown(toy.sent.get()[1]))
        while until is not None and until not in printed[-1]:  # a broadcast, delivered by serve's worker
            printed.append(shown((await asyncio.to_thread(toy.sent.get, timeout=60))[1]))
        stop.set()
        await serving
    return "\n".join(printed)


DRIVERS = {"console": on_console, "toy": on_toy}


@pytest.fixture(params=sorted(DRIVERS))
def platform(request) -> str:
    return request.param


def test_the_readme_conversation(platform, bot):
    block = README.split("## A conversation\n\n```\n", 1)[1].split("\n```", 1)[0]
    typed = [line[len("you> "):] for line in block.splitlines() if line.startswith("you> ")]
    assert DRIVERS[platform](bot, typed) == block


def test_which_board_then_the_answer_then_what_stopped(platform, bot):
    said = DRIVERS[platform](bot, ["is school open monday?", "peel", "what stopped?"])
    assert "Which board is your child's?" in said
    assert "Peel DSB, Monday, October 7" in said
    assert "custodians" in said


def test_a_broadcast_reaches_the_platforms_subscriber(platform, settings, store, shared_matcher):
    """Staff rehearse without any token: subscribe, broadcast, confirm, see the update and the report arrive."""
    staff = settings.replace("roles", province_admins=(f"{platform}:{USER}",))
    bot = build_bot(staff, store=store, clock=lambda: THURSDAY, matcher=shared_matcher)
    lines = ["/subscribe tdsb", "/broadcast tdsb Schools are open Monday.", "/confirm"]
    said = DRIVERS[platform](bot, lines, until="Your broadcast #1 to tdsb is done")
    preview_at = said.index(f"Preview of a broadcast to 1 recipient ({platform} 1)")
    update_at = said.index("bot> Official update for Toronto District School Board (TDSB), Oct 3, 2019, 9:00 a.m.:")
    report_at = said.index("bot> Your broadcast #1 to tdsb is done: 1 delivered, 0 failed, 0 blocked (of 1 recipients).")
    assert preview_at < said.index("you> /confirm") < update_at < report_at
    assert said.count("Schools are open Monday.") == 3  # typed, previewed, delivered: once each
    assert Outbox(store).progress(1).state == "done"


def test_the_registry_alone_gives_the_toy_its_flags_and_its_deliveries(settings, store, capsys, monkeypatch):
    """`serve --toy`, `deliver --platform toy`, and the toy's subscribers served by `deliver`: from one line."""
    from adapters.cli import build_parser, main

    toy = Toy()
    monkeypatch.setattr(registry, "PLATFORMS", (*registry.PLATFORMS, toy.platform))
    assert build_parser().parse_args(["serve", "--toy"]).toy
    store.subscribe("toy", USER, "tdsb", "private", USER)
    db = settings.database.path
    assert main(["broadcast", "--db", db, "--board", "tdsb", "--text", "Buses run late.", "--yes", "--no-wait"]) == 0
    assert main(["deliver", "--once", "--platform", "toy", "--db", db]) == 0
    assert "toy: 1 delivered, 0 failed" in capsys.readouterr().out
    chat, text = toy.sent.get_nowait()
    assert chat == USER and text.startswith("Official update for Toronto District School Board") and "Buses run late." in text


def test_each_platform_is_named_as_its_sender_names_it():
    from adapters.discord_bot.sender import DiscordSender
    from adapters.telegram.sender import MAX_CHARS, TelegramSender
    from bot.broadcast.console import ConsoleSender
    from bot.settings import Settings

    senders = {"telegram": TelegramSender, "discord": DiscordSender, "console": ConsoleSender}
    assert {p.name: senders[p.name].platform for p in registry.PLATFORMS} == {name: name for name in senders}
    assert registry.named("telegram").limits(Settings()).max_chars == MAX_CHARS
    assert registry.named("discord").limits(Settings()) == DiscordSender.limits
    assert registry.named("console").limits(Settings()) == ConsoleSender.limits
