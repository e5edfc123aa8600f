"""What a step of the dispute means for the family, a follow-up asked whole, and a day's school asked beside news
(issue 20, stop 17: conv_l and conv_h conversations). Every reply goes through Bot.handle, on the 2019 pack."""

from __future__ import annotations

from datetime import datetime

from tests.conftest import TORONTO, chat_with


def test_what_the_talks_mean_for_my_kid_is_the_day_they_mean(bot):
    chat = chat_with(bot, datetime(2019, 10, 3, 13, 5, tzinfo=TORONTO))
    chat("what's the actual fight about")
    reply = chat("so what does all that mean for my kid")
    assert reply.startswith("Today, Thursday, October 3, province-wide: open"), reply


def test_after_work_to_rule_what_it_means_is_still_work_to_rule(bot):
    chat = chat_with(bot, datetime(2019, 9, 29, 21, 30, tzinfo=TORONTO))
    chat("what does 'partial withdrawal of services' mean")
    assert "unpaid" in chat("so what does that mean for my kids").split("\n")[0]


def test_a_follow_up_read_surely_on_its_own_words_is_asked_whole(bot):
    chat = chat_with(bot, datetime(2019, 9, 30, 12, 20, tzinfo=TORONTO))
    chat("first day of work to rule. what actually changes at school today")
    chat("what about recess")
    reply = chat("what about cleaning the classrooms")
    assert "sweeping hallways, offices and gyms" in reply.split("\n")[0], reply


def test_whats_happening_with_school_tomorrow_is_the_days_status_beside_news(bot):
    reply = chat_with(bot, datetime(2019, 9, 29, 21, 40, tzinfo=TORONTO))(
        "Anyone know what's happening with school tomorrow? Heard the support staff talks fell apart")
    assert reply.startswith("Tomorrow, Monday, September 30, province-wide: open"), reply
