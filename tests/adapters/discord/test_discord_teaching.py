"""Staff close the loop on Discord: /unanswered lists what parents asked in vain, /teach answers it from then on."""

from __future__ import annotations

import pytest

from tests.fakes.discord import texts

QUESTION = "Can I pick up my kid's things from school?"
TEACH = (f"/teach tdsb | {QUESTION} | Yes: TDSB schools are open for pick-ups from 9 to 3. "
         "| source: TDSB letter of Oct 3 | also: collect my child's belongings")


@pytest.fixture
def settings(settings, world):
    """The moderator of the test server is TDSB staff (by user id, as an operator would grant it)."""
    _, _, moderator, _ = world
    return settings.replace("roles", board_staff=(f"discord:{moderator.id}=tdsb",))


async def _say(fake, user, text: str) -> str:
    before = len(fake.sent)
    await fake.send_dm(user, text)
    await fake.wait_sent(before + 1)
    return "\n".join(texts(fake.sent[before:]))


async def test_unanswered_then_teach_then_the_next_parent_is_answered(adapter, fake, world):
    _, parent, moderator, _ = world
    others = [fake.add_user(name) for name in ("bea", "chen")]
    for user, wording in ((parent, QUESTION), (others[0], "can i pick up my kid's things from school"),
                          (others[1], "CAN I PICK UP MY KID'S THINGS FROM SCHOOL?!")):
        await _say(fake, user, "/board tdsb")
        assert not (await _say(fake, user, wording)).startswith("Yes: TDSB schools are open for pick-ups")

    listed = await _say(fake, moderator, "/unanswered")
    assert f"3x {QUESTION}" in listed.splitlines() and "/teach" in listed
    preview = await _say(fake, moderator, TEACH)
    assert preview.startswith("Preview: a new answer for tdsb") and f"Q: {QUESTION}" in preview
    assert (await _say(fake, moderator, "/confirm")).startswith(f'Done: I now answer "{QUESTION}"')

    newcomer = fake.add_user("dana")
    await _say(fake, newcomer, "/board tdsb")
    answer = await _say(fake, newcomer, "can I pick up my kid's things from school?")
    assert answer.startswith("Yes: TDSB schools are open for pick-ups from 9 to 3.") and "TDSB letter of Oct 3" in answer
    assert "only for school board staff" in await _say(fake, newcomer, "/unanswered")


async def test_a_parent_cannot_teach(adapter, fake, world, store):
    _, parent, _, _ = world
    assert "only for school board staff" in await _say(fake, parent, TEACH)
    assert not [c for c in store.knowledge().cards if c.author]
