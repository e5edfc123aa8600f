"""Conversations through the one entry point: memory, follow-ups, subscriptions, groups."""

from datetime import timedelta

from bot.messages import ChatKind
from tests.conftest import THURSDAY, message, two_close_cards


def test_which_board_then_the_answer(say):
    assert "Which board is your child's?" in say("is school open monday?")
    reply = say("peel")
    assert "Peel DSB, Monday, October 7" in reply
    assert "Peel asked parents to have backup child care ready" in reply  # the clause that fits a phone
    assert "remember Peel District School Board" in reply
    # remembered for the next question
    assert "Peel DSB, tomorrow, Friday, October 4: open" in say("and tomorrow?")


def test_pending_question_keeps_its_date(say):
    say("is there school on oct 8")
    assert "Tuesday, October 8" in say("york region")


def test_a_different_question_drops_the_pending_one(say):
    say("is school open monday?")
    reply = say("what does work to rule mean")
    assert "Which board" not in reply
    assert "unpaid" in reply.lower()  # what work-to-rule means
    # "tdsb" now just sets the board
    assert "your board is Toronto District School Board" in say("tdsb")


def test_pending_question_expires(bot):
    bot.handle(message("is school open monday?"))
    later = message("peel", at=THURSDAY + timedelta(hours=2))
    reply = bot.handle(later)[0].text
    assert "your board is Peel District School Board" in reply


def test_set_change_show_and_clear_board(say):
    assert "your board is Toronto District School Board" in say("/board tdsb")
    assert "Your board is Toronto District School Board (tdsb)" in say("/board")
    assert "your board is Durham District School Board" in say("change my board to durham")
    assert "no longer remember" in say("/board clear")
    assert "You haven't set a board yet" in say("/board")


def test_unknown_board_name(say):
    assert "I don't know a board called 'atlantis'" in say("/board atlantis")


def test_board_without_status_gives_website(say):
    reply = say("is school open monday in ottawa")
    # Nothing of its own: the province-wide status answers, and the first line says where its own word will be.
    assert reply.split("\n")[0] == "OCDSB, Monday, October 7: not confirmed; its word isn't in my reports, check https://www.ocdsb.ca"


def test_board_in_text_wins_over_remembered_board(say):
    say("/board tdsb")
    assert say("is peel open monday").startswith("Peel DSB, Monday, October 7")


def test_memory_is_per_platform_and_user(say):
    say("/board tdsb", user="a")
    assert "Which board is your child's?" in say("is school open monday", user="b")
    assert "Which board is your child's?" in say("is school open monday", user="a", platform="other")


def test_subscribe_and_unsubscribe(bot, say, store):
    assert "Which board's updates do you want?" in say("/subscribe")
    assert "official updates for Peel District School Board" in say("peel")
    assert store.subscriptions_of("test", "u1") == ["pdsb"]
    assert "already get updates" in say("/subscribe peel")
    assert "official updates for all boards" in say("/subscribe all")
    assert "no more updates for" in say("/unsubscribe")
    assert store.subscriptions_of("test", "u1") == []
    assert "no updates to stop" in say("/unsubscribe")


def test_group_only_answers_when_addressed(bot):
    unaddressed = message("is school open monday in peel", chat="g1", kind=ChatKind.GROUP, addressed=False)
    assert bot.handle(unaddressed) == []
    addressed = message("is school open monday in peel", chat="g1", kind=ChatKind.GROUP, addressed=True)
    replies = bot.handle(addressed)
    assert replies and replies[0].chat_id == "g1"


def test_only_group_admins_subscribe_a_group(bot, store):
    def group(text, admin):
        return bot.handle(message(text, chat="g1", kind=ChatKind.GROUP, group_admin=admin))[0].text

    assert "Only this group's admins" in group("/subscribe tdsb", admin=False)
    assert store.subscriptions_of("test", "g1") == []
    assert "This group will now get official updates" in group("/subscribe tdsb", admin=True)
    assert store.subscriptions_of("test", "g1") == ["tdsb"]


def test_channel_posts_get_no_reply(bot):
    assert bot.handle(message("is school open", kind=ChatKind.CHANNEL)) == []


def test_whoami(say):
    assert "You are test user u1" in say("/whoami")


# ------------------------------------------------------------ conversation context (issue 9)
def test_console_style_follow_ups_keep_the_thread(say):
    assert say("is school open monday in peel").startswith("Peel DSB, Monday, October 7")
    assert say("what about tuesday").startswith("Peel DSB, Tuesday, October 8")
    tcdsb = say("and tcdsb?")
    assert tcdsb.startswith("TCDSB, Tuesday, October 8: not confirmed; its word isn't in my reports")
    why = say("why?")  # why the job action first, then why the day is not confirmed
    assert "Local Priorities Fund" in why.split("\n")[0] and "full strike" in why and "Source" not in why
    assert say("is that confirmed?").startswith("No: I have no confirmed information from TCDSB for")


def test_a_new_question_stays_on_the_board_just_talked_about(bot):
    """With no board of their own, a parent's next question is about the board of the conversation."""
    bot.respond(message("is tcdsb open tomorrow"))
    assert bot.respond(message("ok when does the actual strike start then", at=THURSDAY + timedelta(seconds=20))).board == "tcdsb"
    bot.respond(message("are peel schools closed monday", user="u2"))
    kids = bot.respond(message("what am i supposed to do with the kids then", user="u2", at=THURSDAY + timedelta(seconds=20)))
    assert (kids.intent, kids.board, str(kids.date)) == ("childcare", "pdsb", "2019-10-07")
    assert "Peel" in kids.text
    bot.respond(message("is tdsb open monday", user="u3"))
    assert bot.respond(message("thank you so much!!", user="u3", at=THURSDAY + timedelta(seconds=20))).board == "tdsb"
    bot.respond(message("is tdsb open monday", user="u4"))
    other = bot.respond(message("what about the catholic ones in toronto", user="u4", at=THURSDAY + timedelta(seconds=20)))
    assert (other.intent, other.board, str(other.date)) == ("school_status", "tcdsb", "2019-10-07")


def test_a_new_question_keeps_the_users_own_board_and_the_conversation_ends(bot):
    bot.respond(message("my board is durham"))
    bot.respond(message("is tcdsb open tomorrow", at=THURSDAY + timedelta(seconds=10)))
    assert bot.respond(message("when does the strike start", at=THURSDAY + timedelta(seconds=30))).board == "ddsb"
    bot.respond(message("is tcdsb open tomorrow", user="u2"))
    assert bot.respond(message("when does the strike start", user="u2", at=THURSDAY + timedelta(hours=1))).board is None


def test_a_childs_ea_at_school_is_not_answered_with_the_union_list(say):
    """'Will her EA be there?' asks whether the EA works, not whether EAs are in the union."""
    reply = say("my son has an EA, will she be there monday?")
    assert reply.startswith("This week, yes: under work-to-rule education assistants keep working")
    assert "Monday, Oct. 7" in reply
    assert say("are EAs on strike too?").startswith("Education assistants (EAs) are part of CUPE's job action")
    ece = say("my daughter is in kindergarten, will her ECE be there monday?")
    assert ece.startswith("This week, yes: ECEs are CUPE workers on work-to-rule")  # answered, not a choice


def test_a_question_continuing_the_last_one_keeps_its_board_over_the_users_own(bot, say):
    say("is school open monday in peel")
    response = bot.respond(message("how will I find out if it closes?"))
    assert (response.intent, response.board, response.date) == ("updates_source", "pdsb", None)
    say("/board tdsb")
    say("is peel open monday")
    assert bot.respond(message("and daycare?")).board == "pdsb"  # "and ...": still Peel
    assert bot.respond(message("how will I find out?")).board == "tdsb"  # a new question: the user's own
    say("/board durham")  # setting a board moves the conversation there too
    assert bot.respond(message("and daycare?")).board == "ddsb"


def test_keep_me_posted_after_a_board_question_subscribes_to_that_board(say, store):
    say("Est-ce que le CEPEO ferme lundi?")
    say("ok tiens-moi au courant")
    assert store.subscriptions_of("test", "u1") == ["cepeo"]


def test_and_a_new_topic_keeps_the_board_and_the_day(bot, say):
    say("is school open monday in peel")
    response = bot.respond(message("and daycare?"))
    assert (response.intent, response.board, response.date.isoformat()) == ("childcare", "pdsb", "2019-10-07")


def test_french_follow_ups_keep_the_thread(bot, say):
    say("Les écoles de Peel vont fermer lundi?")
    response = bot.respond(message("pis la garderie?"))
    assert (response.intent, response.board, response.date.isoformat()) == ("childcare", "pdsb", "2019-10-07")
    say("les écoles du TDSB sont-elles ouvertes lundi?")
    response = bot.respond(message("ok et le conseil catholique anglais de Toronto?"))
    assert (response.intent, response.board, response.date.isoformat()) == ("school_status", "tcdsb", "2019-10-07")
    assert response.text.startswith("TCDSB, lundi 7 octobre")


def test_follow_ups_expire(say):
    say("is school open monday in peel")
    later = THURSDAY + timedelta(minutes=20)
    assert "Which board is your child's?" in say("what about tuesday", at=later)


def test_more_gives_the_rest_of_the_last_answer(say):
    short = say("are the custodians still cutting the grass")
    more = say("tell me more")
    assert len(more) > len(short) and "overtime" in more


def test_and_the_custodians_stays_on_the_topic(say):
    say("are field trips cancelled?")
    assert "custodians" in say("and the custodians?").split("\n")[0].lower()


def test_social_turns_are_one_line(say):
    thanks = say("thanks!")
    assert thanks.startswith("You're welcome") and "\n" not in thanks and "/subscribe" in thanks
    say("/subscribe tdsb")
    assert say("thank you") == "You're welcome!"
    hello = say("hi")
    assert "\n" not in hello and hello.count('"') == 4  # one line, two example questions
    assert "\n" not in say("bye")
    assert "/subscribe" in say("help") and "/board" in say("help")  # help stays the full list


def test_a_board_inside_a_sentence_is_a_status_question(say):
    assert say("I'm in Peel btw, are we open monday").startswith("Peel DSB, Monday, October 7")
    assert "your board is Peel District School Board" in say("not TDSB, my kid is in Peel")


def test_subscribe_without_a_board_asks_and_takes_all(say, store):
    assert "Which board's updates do you want?" in say("subscribe me to updates")
    assert "official updates for all boards" in say("all")
    assert store.subscriptions_of("test", "u1") == ["all"]


def test_discord_words_in_a_server(bot):
    reply = bot.handle(message("/subscribe tdsb", platform="discord", chat="c1", kind=ChatKind.GROUP))[0].text
    assert reply == "Only this server's admins can subscribe this channel. You can subscribe yourself in a DM with me."


def test_two_close_cards_are_offered_and_the_pick_is_answered_and_logged(bot, say, store):
    two_close_cards(store)
    replies = bot.handle(message("what about the zorblax helpers"))
    offer = replies[0].text
    assert offer.startswith("Do you mean:\n1. Question about ea ") and "\n2. Question about ea " in offer
    assert offer.endswith("Send 1 or 2.")  # no buttons in the console: nothing to tap
    assert replies[0].meta["choices"] and len(replies[0].meta["choice_labels"]) == 2
    chosen = replies[0].meta["choices"][1]
    answer = say("the second one")
    assert answer.startswith(store.knowledge().card_by_id[chosen].answer)
    store.flush_questions()
    logged = [row[0] for row in store.conn.execute("SELECT text FROM question_log")]
    assert f"[picked 2: {chosen}] what about the zorblax helpers" in logged
    assert "Do you mean" not in say("2")  # the choice was used up: "2" is not a pick any more


def test_the_other_kind_of_board_where_the_last_one_is(say):
    """'and the catholic one?' after Peel means Dufferin-Peel Catholic, as if named, and keeps the day;
    a kind not named stays the last board's own ('the french one' after Dufferin-Peel: MonAvenir, Catholic)."""
    assert say("is school open monday in brampton").startswith("Peel DSB, Monday, October 7")
    assert say("ok and the catholic one?").startswith("Dufferin-Peel CDSB, Monday, October 7")
    assert say("and the french one?").startswith("MonAvenir, Monday, October 7")
    assert say("what about the public one").startswith("Viamonde, Monday, October 7")


def test_the_other_kind_of_board_in_french(say):
    assert say("l'école est-elle ouverte lundi à Ottawa?").startswith("CEPEO, lundi 7 octobre")
    assert say("et le catholique?").startswith("CECCE, lundi 7 octobre")


def test_a_kind_word_with_no_board_before_changes_nothing(shared_matcher):
    boards = shared_matcher.boards
    assert boards.counterpart("pdsb", "is school open monday") is None  # no kind named
    assert boards.counterpart("pdsb", "and the public one") is None  # the same kind: no other board
    assert boards.counterpart("tcdsb", "and the public one") == "tdsb"


def test_thanks_after_a_filler_word_is_thanks(say):
    say("is tdsb open tomorrow")
    assert say("ok thx").startswith("You're welcome!")
    assert say("cool ty").startswith("You're welcome!")


def test_is_that_confirmed_after_a_card_says_not_officially_and_when(say):
    say("when does the strike start")
    reply = say("is that confirmed")
    assert reply.startswith("Not officially: it is what the news reported as of Oct 2, 2019, 8:00 p.m. (source: ")
    assert ".." not in reply
