"""The staff web page in a real browser: Debian's chromium driven by Playwright, on 127.0.0.1.

Skipped, saying why, where chromium or Playwright is not installed (`.ci/run` installs chromium when it can;
a browser download at install time is never used). Screenshots of each page at phone and desktop width are
kept under $SCHOOLBOT_ARTEFACTS/web (default: the temporary folder's schoolbot-artefacts/web).
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from aiohttp import web

from adapters.console import run_console
from adapters.web.app import make_app
from bot.admin.web_link import sign_in_link
from tests.adapters.telegram.telegram_support import free_port
from tests.adapters.web.conftest import ADMIN, PARENT, TDSB_STAFF
from tests.conftest import THURSDAY, message

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium; "
                                                          ".ci/run does it when run as root)")
playwright_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed (pip install "
                                                                    "-e '.[dev]')")

PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 900}
ARTEFACTS = Path(os.environ.get("SCHOOLBOT_ARTEFACTS") or Path(tempfile.gettempdir()) / "schoolbot-artefacts") / "web"


@pytest.fixture
async def site(bot):
    """The page served on a free port of 127.0.0.1; its address."""
    runner = web.AppRunner(make_app(bot))
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield f"http://127.0.0.1:{port}"
    await runner.cleanup()


@pytest.fixture
async def browser():
    async with playwright_api.async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=CHROMIUM)
        yield launched
        await launched.close()


async def signed_in(browser, site: str, store, user: str, viewport=DESKTOP):
    """A browser page signed in by a one-time link, as staff would: open it, press Sign in."""
    page = await (await browser.new_context(viewport=viewport)).new_page()
    link = sign_in_link(store, site, "test", user)
    await page.goto(link)
    await page.click("button:has-text('Sign in')")
    await page.wait_for_url(site + "/")
    return page, link


async def until_shown(page, wanted, seconds: float = 60) -> list[str]:
    """The percentages the page shows (its own script moves them), until one is `wanted` (read from here: the
    page's content policy allows no script of the test's)."""
    import asyncio

    shown = []
    for _ in range(int(seconds / 0.05)):
        shown.append(await page.inner_text("#p-percent"))
        if wanted(shown[-1]):
            return shown
        await asyncio.sleep(0.05)
    raise AssertionError(f"the page never showed it: {shown[-5:]}")


async def shoot(page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)
    await page.screenshot(path=str(ARTEFACTS / f"{name}-first-screen.png"))  # what shows before scrolling


async def test_sign_in_by_link_see_the_boards_and_keep_screenshots(browser, site, bot, store):
    bot.handle(message("can kids bring their ukulele to the zorblax fair at tdsb", user=PARENT))
    for width, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page, link = await signed_in(browser, site, store, ADMIN, viewport)
        assert await page.inner_text("h1") == "Boards at a glance"
        assert await page.locator("table.boards tbody tr").count() == 72
        await shoot(page, f"boards-{width}")
        for path, name in (("/board/tdsb", "board"), ("/asking", "asking"), ("/audit", "audit")):
            await page.goto(site + path)
            await shoot(page, f"{name}-{width}")
        await page.goto(link)  # the link again: used
        assert "This link does not work" in await page.inner_text("h1")
    assert len(list(ARTEFACTS.glob("*.png"))) >= 16


async def test_board_staff_cannot_open_another_board_in_the_browser(browser, site, store):
    page, _ = await signed_in(browser, site, store, TDSB_STAFF, PHONE)
    assert await page.locator("table.boards tbody tr").count() == 1
    response = await page.goto(site + "/board/pdsb")
    assert response.status == 403 and "not one of your boards" in await page.inner_text("main")


async def test_a_parents_script_is_shown_as_text_and_never_runs(browser, site, bot, store):
    question = "<script>alert('x')</script> can my kid bring a ukulele to tdsb zorblax fair"
    bot.handle(message(question, user=PARENT))
    page, _ = await signed_in(browser, site, store, ADMIN)
    dialogs = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    await page.goto(site + "/asking")
    assert question in await page.inner_text("main")
    await page.goto(site + "/board/tdsb")
    assert question in await page.inner_text("main") and dialogs == []


async def test_teach_from_what_parents_ask_then_the_console_answers_with_it(browser, site, bot, store):
    question = "can kids bring their ukulele to the zorblax fair at tdsb"
    bot.handle(message(question, user=PARENT))
    page, _ = await signed_in(browser, site, store, TDSB_STAFF, PHONE)
    await page.click("text=What parents ask")
    item = page.locator("li", has_text=question)
    await item.locator("summary").click()
    await item.locator("textarea[name=answer]").fill("Yes: ukuleles are welcome at the zorblax fair, in a case.")
    await item.locator("button", has_text="Preview").click()
    assert "ukuleles are welcome" in await page.inner_text(".said")
    await shoot(page, "teach-preview-phone")
    await page.click("button:has-text('Confirm')")
    assert await page.inner_text("h1") == "Confirmed"

    out = io.StringIO()
    run_console(bot, start=THURSDAY, board="tdsb", stdin=io.StringIO(question + "\n"), stdout=out)
    assert "ukuleles are welcome" in out.getvalue()


async def test_a_broadcast_to_2000_telegram_subscribers_whose_bar_reaches_100_percent(browser, site, bot, store,
                                                                                       settings):
    import asyncio

    from adapters.telegram import open_sender
    from bot.broadcast.worker import DeliveryWorker
    from tests.fakes.telegram import FakeTelegram

    for chat in range(10_000, 12_000):  # Telegram chat ids are numbers
        store.subscribe("telegram", str(chat), "tdsb", "private", str(chat))
    page, _ = await signed_in(browser, site, store, TDSB_STAFF, PHONE)
    await page.click("text=Broadcast")
    await page.fill("textarea[name=english]", "Schools are open Monday.")
    await page.click("button:has-text('Preview')")
    assert "2,000 recipients (telegram 2,000)" in await page.inner_text(".said")
    await page.click("button:has-text('Confirm')")
    assert "Broadcast #1 queued for 2,000 recipients" in await page.inner_text("main")
    await page.goto(site + "/broadcast/1")
    assert await page.inner_text("#p-percent") == "0%"

    async with FakeTelegram() as fake:
        telegram = settings.replace("telegram", token=fake.token, base_url=fake.base_url).replace(
            "limits", telegram_per_second=0)
        async with open_sender(telegram) as sender:
            delivering = asyncio.create_task(DeliveryWorker(store, sender, telegram, poll_interval=0.01).run(once=True))
            shown = await until_shown(page, lambda percent: percent != "0%")
            await shoot(page, "broadcast-progress-phone")
            await delivering
            shown += await until_shown(page, lambda percent: percent == "100%")
    # The bar moved on its own, the page polling the progress endpoint: 0% above, 100% now, no reload between (how
    # many values it showed on the way depends on how fast the fake delivers).
    assert shown[-1] == "100%", shown
    assert await page.get_attribute("#bar", "value") == await page.get_attribute("#bar", "max") == "2000"
    assert await page.inner_text("#p-delivered") == "2,000" and await page.inner_text("#p-pending") == "0"
    assert fake.send_count >= 2000
    await shoot(page, "broadcast-done-phone")
