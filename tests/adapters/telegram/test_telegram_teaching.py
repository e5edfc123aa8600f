"""Staff close the loop on Telegram: /unanswered lists what parents asked in vain, /teach answers it from then on."""

from __future__ import annotations

import pytest
from telegram_support import answered

STAFF = 7001  # TDSB staff, by the settings below
QUESTION = "Can I pick up my kid's things from school?"
TEACH = (f"/teach tdsb | {QUESTION} | Yes: TDSB schools are open for pick-ups from 9 to 3. "
         "| source: TDSB letter of Oct 3 | also: collect my child's belongings")


@pytest.fixture
def settings(settings):
    return settings.replace("roles", board_staff=(f"telegram:{STAFF}=tdsb",))


async def _say(fake, text: str, user: int) -> str:
    before = len(fake.sent(user))
    texts = await answered(fake, fake.private(text, user_id=user), user, count=before + 1)
    return "\n".join(texts[before:])


async def test_unanswered_then_teach_then_the_next_parent_is_answered(fake, bot, tg_settings, running):
    async with running(bot, tg_settings, fake):
        for parent, wording in ((1101, QUESTION), (1102, "can i pick up my kid's things from school"),
                                (1103, "CAN I PICK UP MY KID'S THINGS FROM SCHOOL?!")):
            await _say(fake, "/board tdsb", parent)
            unsure = await _say(fake, wording, parent)
            assert not unsure.startswith("Yes: TDSB schools are open for pick-ups")

        listed = await _say(fake, "/unanswered", STAFF)
        assert f"3x {QUESTION}" in listed.splitlines() and "/teach" in listed
        assert "can only act for" not in listed

        preview = await _say(fake, TEACH, STAFF)
        assert preview.startswith("Preview: a new answer for tdsb") and f"Q: {QUESTION}" in preview
        done = await _say(fake, "/confirm", STAFF)
        assert done.startswith(f'Done: I now answer "{QUESTION}"')

        await _say(fake, "/board tdsb", 1104)
        answer = await _say(fake, "can I pick up my kid's things from school?", 1104)
        assert answer.startswith("Yes: TDSB schools are open for pick-ups from 9 to 3.")
        assert "TDSB letter of Oct 3" in answer
        refused = await _say(fake, "/unanswered", 1104)  # a parent is not staff
        assert "only for school board staff" in refused and "3x" not in refused
    print("\n" + fake.transcript(STAFF))


async def test_a_parent_cannot_teach(fake, bot, tg_settings, running):
    async with running(bot, tg_settings, fake):
        reply = await _say(fake, TEACH, 1105)
    assert "only for school board staff" in reply
    assert not [c for c in bot.store.knowledge().cards if c.author]
