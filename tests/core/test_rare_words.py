"""A question nothing else placed, answered from the one text that speaks of its rare words (bot/answering/passages.py).

Issue 20, shape 2: "Sorry, I'm not sure" where the knowledge holds the answer. Every test goes through
Bot.handle, on the 2019 pack, at the clock of the conversation.
"""

from __future__ import annotations

from datetime import datetime

from bot.answering import passages
from bot.replies import Voice
from tests.conftest import TORONTO, message

THURSDAY = datetime(2019, 10, 3, 19, 0, tzinfo=TORONTO)
NOT_SURE = "Sorry, I'm not sure"


def ask(bot, text: str, at: datetime = THURSDAY) -> str:
    return "\n".join(r.text for r in bot.handle(message(text, at=at)))


def test_two_rare_words_in_one_text_answer_outright(bot):
    reply = ask(bot, "did the union really vote 93%")
    assert reply.startswith("CUPE, whose school members include")
    assert "93% of its members voted in favour of job action" in reply.split("\n")[0]
    assert "Teachers are not part" not in reply  # the dispute's note is not added under a text found this way


def test_one_word_in_common_is_offered_as_the_nearest_text_not_as_the_answer(bot):
    reply = ask(bot, "who's the minister")
    first, second = reply.split("\n")[:2]
    assert first == "I'm not sure I understood. What the reports say on \"minister\":"
    assert "Minister Stephen Lecce" in second


def test_in_french_the_text_is_given_in_french(bot):
    reply = ask(bot, "c'est vrai que 93 % ont voté?")
    assert "93 % ont appuyé les moyens de pression" in reply.split("\n")[0]


def test_words_no_text_shares_still_get_not_sure(bot):
    for text in ("can you help me with my taxes", "what's the best pizza place in mississauga", "asdfgh"):
        assert ask(bot, text).startswith(NOT_SURE), text


def test_a_vague_word_alone_finds_nothing(bot):
    assert passages.find(bot.store.knowledge(), "all of them", THURSDAY, Voice("en")) is None


def test_a_text_published_after_the_question_is_not_found(bot):
    # The 93% vote was reported around Sept. 24; on Sept. 6 no text speaks of it.
    early = datetime(2019, 9, 6, 12, 0, tzinfo=TORONTO)
    found = passages.find(bot.store.knowledge(), "did the union really vote 93%", early, Voice("en"))
    assert found is None or "93" not in getattr(found.passage.entry, "text", "")


def test_an_unsure_answer_sharing_no_word_gives_way_to_a_text_sharing_two(bot):
    knowledge = bot.store.knowledge()
    found = passages.instead_of(knowledge, "did the union really vote 93%", THURSDAY, Voice("en"),
                                "Talks resume Friday, Oct. 4.")
    assert found is not None and found.sure
    # ...but not an answer that already speaks of what was asked
    assert passages.instead_of(knowledge, "did the union really vote 93%", THURSDAY, Voice("en"),
                               "Yes: 93% voted for job action.") is None


def test_a_plural_means_what_its_singular_does(bot):
    reply = ask(bot, "is peel telling parents to find babysitters")
    assert not reply.startswith(NOT_SURE)
    assert "Peel" in reply.split("\n")[0] and "arrangements" in reply.split("\n")[0]


def test_vague_words_are_left_out_as_words_of_cuts_them(bot):
    # "time" is cut to "tim", "happening" to "happe": the list of vague words is kept in that form
    knowledge = bot.store.knowledge()
    for text in ("time?", "whats happening with the people", "is it true"):
        assert passages.find(knowledge, text, THURSDAY, Voice("en")) is None, text
