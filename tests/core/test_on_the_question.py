"""Answers that stay on the question (issue 20): each shape of failure, as a parent would meet it.

Every test goes through Bot.handle, on the 2019 pack, at the conversation's clock.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from bot.subjects import SUBJECTS_FILE, load_subjects
from knowledge.loading import LoadError
from tests.conftest import TORONTO, chat_with

THURSDAY = datetime(2019, 10, 3, 9, 0, tzinfo=TORONTO)


@pytest.fixture
def chat(bot):
    """chat(text, ...) -> the reply texts joined; each call a few seconds after the last, one parent."""
    return chat_with(bot, THURSDAY)


# ---------------------------------------------------------------- 1. about what was asked, or honestly not
def test_custodians_get_the_custodians_answer_not_the_union_roster(chat):
    reply = chat("are custodians still working?")
    assert reply.startswith("School custodians are part of CUPE's job action, yes")
    assert "still at work" in reply.split("\n")[0]


def test_what_about_the_eas_after_a_status_is_about_eas(chat):
    chat("is school open monday? peel")
    reply = chat("what about the EAs")
    assert reply.startswith("Education assistants (EAs) are part of CUPE's job action")
    assert "Local Priorities Fund" not in reply


def test_a_question_the_reports_do_not_cover_gets_an_honest_line_and_where_to_ask(chat):
    reply = chat("will the school call me if my kid is sick")
    assert reply == ("I don't know: the reports say nothing about the school phoning parents; "
                     "ask your school's office how it will reach you.")


def test_a_duty_asked_about_answers_even_without_the_group_named(chat):
    reply = chat("are the custodians still cutting the grass")
    assert reply.startswith("No: TDSB says cutting grass")


def test_a_status_question_mentioning_a_child_s_support_keeps_the_status(chat):
    reply = chat("is school open monday in peel? my son has an EA")
    assert reply.startswith("Peel DSB, Monday, October 7")


def test_a_group_of_the_dispute_named_in_a_list_is_not_an_answer_about_it(bot):
    subjects = bot.subjects
    custodians = tuple(s for s in subjects.subjects if s.id == "custodians")
    roster = "The job action involves CUPE's school support staff: custodians, office staff, library workers."
    assert not subjects.mentions_apart(roster, custodians, 30)
    assert subjects.mentions_apart("Since Sept. 30, custodians no longer clean hallways.", custodians, 30)


# ---------------------------------------------------------------- 2. "not sure" where the knowledge answers
@pytest.mark.parametrize("question, start", [
    ("just saw news, strike monday?? brampton", "Peel DSB, Monday, October 7"),
    ("durham schools monday? no one telling us anything", "Durham DSB, Monday, October 7"),
    ("tcdsb monday??? nobody is telling us anything", "TCDSB, Monday, October 7"),
])
def test_a_status_question_typed_in_a_hurry_gets_the_status(chat, question, start):
    assert chat(question).startswith(start)


# ---------------------------------------------------------------- 3. a yes/no for the question asked
@pytest.mark.parametrize("question", ["will teachers be at school monday?", "and is the teacher there",
                                      "will my kid's teacher be at school monday then"])
def test_will_the_teacher_be_there_is_yes(chat, question):
    assert chat(question).startswith("Yes: teachers are not part of this job action")


def test_are_teachers_on_strike_is_still_no(chat):
    assert chat("are teachers on strike").startswith("No: this job action is by CUPE support staff")


def test_les_profs_seront_la_en_francais(chat):
    assert chat("les profs vont tu être là lundi?").startswith("Oui : les enseignants ne participent pas")


# ---------------------------------------------------------------- 5. the thread
def test_another_child_at_another_board_answers_for_it_and_keeps_both(chat):
    chat("is school open monday? my kids are in mississauga")
    reply = chat("and my other kid at tcdsb?")
    assert reply.startswith("TCDSB, Monday, October 7: not confirmed")
    boards = chat("/board")
    assert "Peel District School Board" in boards and "Toronto Catholic District School Board" in boards


def test_a_remembered_board_stays_when_another_child_s_board_is_named(chat):
    chat("/board peel")
    chat("is school open monday?")
    assert chat("and what about my son at dpcdsb").startswith("Dufferin-Peel CDSB, Monday, October 7")
    boards = chat("/board")
    assert boards.startswith("Your board is Peel District School Board (pdsb).")
    assert "Dufferin-Peel Catholic District School Board" in boards


def test_but_peel_said_something_right_answers_for_peel(chat):
    chat("is school open monday in tcdsb?")
    assert chat("but peel said something right?").startswith("Peel DSB, Monday, October 7: not decided yet")


def test_is_that_only_this_board_gives_the_picture_across_boards(chat):
    chat("york region public, school tomorrow?", at=datetime(2019, 10, 6, 10, tzinfo=TORONTO))
    reply = chat("is that only york region or everywhere")
    assert "It depends on the board" in reply.split("\n")[0]
    assert "Peel DSB, York Region DSB: not decided yet" in reply


def test_is_that_only_tdsb_after_a_worker_question_says_who_it_covers(chat):
    chat("are EAs on strike")
    reply = chat("is that only tdsb")
    assert reply.startswith("It is not one board: the job action covers about 55,000 CUPE education workers")


@pytest.mark.parametrize("ack", ["ok", "k", "ok good", "ugh ok", "d'accord", "cool"])
def test_an_acknowledgement_gets_one_short_line(chat, ack):
    chat("is school open monday in peel?")
    reply = chat(ack)
    assert "\n" not in reply and len(reply) <= 80 and "not sure" not in reply and "/help" not in reply


def test_merci_bcp_is_thanks_in_french(chat):
    assert chat("merci bcp").startswith("De rien!")


# ---------------------------------------------------------------- 6. short: the source one "source?" away
def test_a_card_answer_leaves_its_news_file_for_source(chat):
    reply = chat("are EAs on strike too?")
    assert "Source" not in reply and "\n" in reply
    assert chat("source?") == "Source: 2019-10-02-full-strike-notice-talks-friday.txt, as of Oct 2, 2019, 8:00 p.m." \
        '\nThe report: "Union gives notice of full strike; talks resume Friday"'


def test_a_status_answer_has_no_full_name_line(chat):
    reply = chat("is school open monday in peel?")
    assert "Peel District School Board" not in reply and "\nSource: " in reply


# ---------------------------------------------------------------- the data file
def test_the_shipped_subjects_file_loads(tmp_path):
    subjects = load_subjects(SUBJECTS_FILE)
    assert {"teachers", "eas", "custodians", "office_staff"} <= {s.id for s in subjects.subjects}
    assert subjects.asks("will the teacher be there monday") == "presence"
    assert subjects.asks("are the EAs on strike") == "participation"


def test_a_wrong_subjects_file_names_the_entry_and_the_problem(tmp_path):
    bad = tmp_path / "subjects.yaml"
    bad.write_text("subjects:\n  eas:\n    words: []\n    name: {en: EAs}\npresence: [be there]\n"
                   "participation: [on strike]\nchildren: [my]\nanother_child: [other]\ncolour: red\n", encoding="utf-8")
    with pytest.raises(LoadError) as raised:
        load_subjects(bad)
    text = str(raised.value)
    assert "subjects.eas: 'words': must be a non-empty list" in text and "unknown section 'colour'" in text


# ---------------------------------------------------------------- 4. time inside the dispute
def test_talks_planned_for_a_day_that_has_passed_are_said_to_have_no_news_yet(chat):
    friday_night = datetime(2019, 10, 4, 22, 20, tzinfo=TORONTO)
    reply = chat("did they reach a deal", at=friday_night)
    assert reply.startswith("No news yet of what happened on Fri Oct 4 (my latest: Oct 2, 2019):")
    morning = chat("did they reach a deal", user="other", at=datetime(2019, 10, 4, 9, 0, tzinfo=TORONTO))
    assert morning.startswith("No, not as of Oct. 2: talks resume on the afternoon of Friday, Oct. 4")


def test_a_weekend_day_takes_one_short_line_before_the_next_school_day(chat):
    reply = chat("is tdsb open tomorrow?", at=datetime(2019, 10, 4, 20, 0, tzinfo=TORONTO))
    first, second = reply.split("\n")[:2]
    assert first == "Tomorrow, Saturday, October 5 is on the weekend: no school."
    assert second.startswith("TDSB, Monday, October 7")


# ---------------------------------------------------------------- stop 14: what parents wrote in conv_f
def test_an_acknowledgement_with_the_parent_s_plan_gets_one_short_line(chat):
    chat("is school open monday in peel?")
    for text in ("ok i'll ask the teacher", "ok thanks, I'll point them to the board site", "ok I'll call the school",
                 "d'accord je vais appeler l'école"):
        reply = chat(text)
        assert len(reply) <= 120 and "not sure" not in reply and "/help" not in reply, text


def test_a_plan_followed_by_a_question_is_still_a_question(chat):
    reply = chat("ok i'll be home monday, is school open in peel")
    assert reply.startswith("Peel DSB, Monday, October 7")


def test_two_close_cards_of_one_topic_asked_differently_are_not_offered_as_a_choice(chat):
    at = datetime(2019, 10, 3, 19, 0, tzinfo=TORONTO)
    assert chat("strike??", at=at).startswith("Not a full strike (yet)")
    assert chat("Will the teachers be there?").startswith("Yes: teachers are not part of this job action")


def test_the_other_date_of_a_timeline_answer_is_labelled_in_time_order(chat):
    reply = chat("is the strike really happening monday or is it just a threat")
    lead, other = reply.split("\n")[:2]
    assert lead.startswith("Mon Oct 7") and other.startswith("Before that: Fri Oct 4")


def test_york_alone_is_york_region(chat):
    assert chat("is school open monday in york").startswith("York Region DSB, Monday, October 7")


def test_a_day_asked_first_beside_daycare_is_answered_first(chat):
    reply = chat("is there school monday and what happens with the daycare in the school? we're at a TDSB school")
    assert reply.startswith("TDSB, Monday, October 7: not confirmed")
    assert "daycare" in reply


def test_a_health_detail_before_the_question_does_not_hide_what_is_asked(chat):
    reply = chat("My daughter has type 1 diabetes and the EA helps her check her sugar. Is the EA still there this week?")
    assert "I have no information on a sick child" not in reply
    assert "still at work" in reply.split("\n")[0] or "keep working" in reply.split("\n")[0]


def test_when_a_phase_starts_or_whether_it_is_over_gets_its_dates_not_its_meaning(chat):
    sunday = datetime(2019, 9, 29, 21, 35, tzinfo=TORONTO)
    # a card asked "when" answers it (stop 15), else the timeline: either way the date first
    assert chat("and work to rule starts when exactly", at=sunday).startswith("At 12:01 a.m. on Monday, Sept. 30: work-to")
    assert chat("is the work to rule over too").startswith("Mon Sep 30")
    assert chat("what is work to rule").startswith("Staff keep doing their regular paid work")
    assert not chat("pendant la grève du zèle, ils travaillent quand même?").startswith("lun. 30 sept.")


def test_a_day_gone_by_tells_what_happened_the_later_day_is_asked(chat):
    monday = datetime(2019, 10, 7, 7, 0, tzinfo=TORONTO)
    reply = chat("Bonjour, il parait qu'il y a eu une entente hier soir, l'école est ouverte aujourd'hui? CSDCEO", at=monday)
    assert "dimanche 6 octobre" not in reply and "lundi 7 octobre" in reply.split("\n")[0]


def test_every_day_in_a_question_does_not_ask_for_the_whole_list(chat):
    monday = datetime(2019, 9, 30, 7, 0, tzinfo=TORONTO)
    reply = chat("My son has autism and relies on his EA every day. Will she be at school today with the work to rule?",
                 at=monday)
    assert reply.startswith("Yes, during work-to-rule: education assistants keep working")
    assert len(reply) < 400


def test_any_news_is_read_as_what_s_the_latest(chat):
    assert chat("any news?") == chat("what's the latest")


def test_the_strike_named_in_what_reads_as_help_asks_about_the_strike(chat):
    reply = chat("allo c quoi l'histoire de grève dans les écoles? mes enfants sont au cepeo")
    assert "/help" not in reply and len(reply) < 400
    assert chat("what can this bot tell me about the strike").startswith("I answer parents' questions")


def test_a_board_and_the_dispute_typed_as_in_a_search_box_get_the_board_s_day(chat):
    for text, day in (("hamilton schools cupe strike", "HWDSB, today, Thursday, October 3"),
                      ("viamonde greve scfp", "Viamonde, aujourd'hui, jeudi 3 octobre"),
                      ("peel work to rule", "Peel DSB, today, Thursday, October 3")):
        assert chat(text, user=text).startswith(day), text


def test_a_board_with_a_question_of_its_own_is_not_a_search(chat):
    assert not chat("tdsb strike why", user="why").startswith("TDSB, today")
    assert chat("update my board to peel region pls", user="set").startswith("Got it")


def test_a_service_asked_open_or_closed_is_about_the_service_not_the_school_s_day(chat):
    monday = datetime(2019, 9, 30, 22, 0, tzinfo=TORONTO)
    reply = chat("is the school library closed because of the work to rule? my kid couldn't take out books today",
                 at=monday)
    assert "library" in reply.split("\n")[0].lower()
    assert chat("teachers walked out, is school cancelled today in durham??", user="durham").startswith("Durham DSB")


def test_the_strike_with_a_day_or_a_month_asks_when_not_who(chat):
    early = datetime(2019, 9, 9, 6, 45, tzinfo=TORONTO)
    reply = chat("will school support workers strike in september", at=early)
    assert "23" in reply.split("\n")[0] and "55,000" not in reply.split("\n")[0]
    assert chat("are teachers on strike monday").startswith("No: this job action is by CUPE support staff")


def test_a_board_given_after_a_question_whose_answer_depends_on_it_answers_it_there(chat):
    chat("where do i get updates", user="updates")
    assert chat("we're peel", user="updates").startswith("Peel DSB posts its official updates on its website")


def test_never_mind_is_an_acknowledgement_not_a_request_to_stop(chat):
    for text in ("ok never mind", "nvm", "laisse faire"):
        reply = chat(text, user=text)
        assert "subscribed" not in reply and "not sure" not in reply and len(reply) <= 120, text


def test_what_about_today_after_a_worker_group_is_today_at_the_conversation_s_board(chat):
    evening = datetime(2019, 10, 3, 19, 0, tzinfo=TORONTO)
    chat("is tdsb open monday", at=evening, user="today")
    chat("what about the custodians", user="today")
    assert chat("what about today?", user="today").startswith("TDSB, today, Thursday, October 3")


def test_a_status_asked_with_no_day_on_a_weekend_goes_to_the_next_school_day_at_once(chat):
    saturday = datetime(2019, 10, 5, 21, 45, tzinfo=TORONTO)
    reply = chat("peel strike", at=saturday, user="weekend")
    assert reply.startswith("Peel DSB, Monday, October 7"), reply
    assert chat("is school open tomorrow in peel", user="weekend").startswith("Tomorrow, Sunday, October 6 is on the weekend")


def test_past_220_characters_supporting_lines_keep_their_first_clause_and_where_to_ask(chat):
    from bot.answering.trimming import SHORT_CHARS, _first_clauses
    line = "The first line answers.\nSupport with many words that run on and on past fifty characters; and a tail clause."
    assert _first_clauses(line).endswith("past fifty characters.")
    advice = "The first line answers.\nThe reports do not say whether before- and after-school programs run; check with your board."
    assert _first_clauses(advice) == advice  # where to ask is the answer's other half
    assert SHORT_CHARS == 220


# ---------------------------------------------------------------- stop 15: conversations as parents write them
def test_asking_why_the_bot_does_not_know_gives_its_newest_news_and_the_board_s_site(chat):
    monday = datetime(2019, 10, 7, 6, 35, tzinfo=TORONTO)
    chat("school today?? tdsb", at=monday)
    reply = chat("why dont u know")
    assert reply == ("My latest news is from Oct 2, 2019; each board posts its decisions on its own website first.\n"
                     "Check the board's website: https://www.tdsb.on.ca")
    assert chat("so basically nobody knows").startswith("My latest news is from Oct 2, 2019")
    assert chat("pourquoi tu le sais pas").startswith("Mes nouvelles les plus récentes datent du 2 octobre 2019")


def test_a_board_named_with_first_or_specifically_answers_the_last_question_there(chat):
    chat("one kid at ocdsb, one at tdsb. what happens monday in each")
    assert chat("ottawa first").startswith("OCDSB, Monday, October 7")
    assert chat("what about tdsb specifically").startswith("TDSB, Monday, October 7")
    assert chat("le tdsb d'abord").startswith("TDSB, lundi 7 octobre")


def test_thanks_with_a_plan_without_i_is_one_short_line(chat):
    chat("is school open monday? peel")
    reply = chat("thanks, will keep an eye out")
    assert "\n" not in reply and "/help" not in reply
    assert chat("ok, will school be open tuesday").startswith("Peel DSB, Tuesday, October 8")


def test_a_bare_board_after_the_strike_dates_answers_that_board_s_day_and_remembers_it(chat, bot):
    evening = datetime(2019, 10, 2, 22, 15, tzinfo=TORONTO)
    chat("they gave strike notice? when would schools close?", at=evening)
    reply = chat("york region")
    assert reply.startswith("York Region DSB, tomorrow, Thursday, October 3")
    assert "(I'll remember York Region District School Board" in reply
    assert chat("is school open monday").startswith("York Region DSB, Monday, October 7")


def test_is_true_asks_about_the_sentence_before_it(chat):
    late = datetime(2019, 10, 3, 23, 10, tzinfo=TORONTO)
    reply = chat("Hello. I am grandmother, I pick up my grandson from school in Brampton every day. "
                 "My daughter say there is maybe strike Monday. Is true?", at=late)
    assert reply.startswith("Peel DSB, Monday, October 7: not decided yet: closures are possible.")


def test_is_it_the_same_elsewhere_is_a_scope_question_unless_it_names_a_board(chat):
    chat("does the office still collect money for pizza day during the work to rule")
    assert chat("is it the same in catholic schools").startswith("It is not one board")
    assert chat("is it like this in all of toronto or just my school").startswith("It is not one board")
    chat("is school open monday? york region")
    assert chat("is it the same for the catholic schools in markham").startswith("York Catholic DSB, Monday, October 7")


def test_time_alone_after_the_talks_asks_when_they_are(chat):
    friday = datetime(2019, 10, 4, 13, 10, tzinfo=TORONTO)
    chat("talks today?", at=friday)
    assert chat("time?").startswith("CUPE, the province and the school boards are due to resume talks on the afternoon")


def test_what_day_gets_the_card_on_when_not_the_close_one_on_who(chat):
    first = chat("what day are the talks").split("\n")[0]
    assert "Friday" in first and "Oct. 4" in first and ("talks" in first or "table" in first)


def test_a_card_asked_for_what_the_question_asks_answers_over_a_sure_intent_of_another_topic(chat):
    monday = datetime(2019, 9, 30, 19, 0, tzinfo=TORONTO)
    reply = chat("how long will the work to rule last", at=monday)
    assert reply.startswith("I don't know: none of the reports says how long the job action would last")


def test_a_group_named_in_the_story_and_asked_about_with_she_is_what_is_asked(chat):
    tuesday = datetime(2019, 10, 1, 7, 5, tzinfo=TORONTO)
    reply = chat("my son has autism and his EA is basically the only reason he can get through a school day. i read "
                 "the support staff are on work to rule now and i'm panicking a bit. is she still going to be in class "
                 "with him today?", at=tuesday)
    assert reply.startswith("Yes, during work-to-rule: education assistants keep working with students")
    reply = chat("Mon garçon a un TSA pis son aide-enseignante c'est vraiment elle qui le garde calme en classe. On est "
                 "à Orléans, CEPEO. Si y'a grève lundi est-ce qu'elle va être là?", user="parent2")
    assert reply.startswith("Oui, pendant la grève du zèle : les aides-enseignants continuent de travailler")
    assert "Une grève générale serait différente : les aides-enseignants quitteraient le travail" in reply


def test_they_in_an_if_clause_is_not_what_is_asked(chat):
    reply = chat("the extended day program at my kids' school is run by the board with ECEs. if they strike tomorrow "
                 "is that cancelled too?")
    assert not reply.startswith("Early childhood educators (ECEs) are part of CUPE's job action")


def test_a_question_about_the_bot_itself_gets_one_line_on_what_it_is(chat):
    about = ("I'm an automated chat bot, not a person and not the school board: I answer from news reports on the "
             "job action, with the source and date of each answer. For official word, check your board's website.")
    assert chat("are you a real person") == about
    assert chat("who made you") == about
    assert chat("are you connected to the school board?") == about
    assert chat("t'es-tu un vrai humain ou un bot?").startswith("Je suis un robot conversationnel, pas une personne")


def test_venting_and_thanks_with_a_feeling_are_one_short_line(chat):
    chat("is school open monday? peel")
    assert "\n" not in chat("sorry for venting") and "not sure" not in chat("sorry for venting")
    assert chat("ok. thanks. this is a lot").startswith("You're welcome!")
    assert chat("ok what do you know then, generally").startswith("I answer parents' questions about school")


def test_a_group_named_alone_is_not_a_request_for_help(chat):
    reply = chat("teachers also?")
    assert "Commands:" not in reply and "teachers are not part of this job action" in reply


def test_no_wait_corrects_the_board_of_the_last_question(chat):
    chat("is dufferin peel open monday")
    assert chat("no wait, it's the public one. peel district").startswith("Peel DSB, Monday, October 7")


def test_my_other_one_at_a_board_s_high_school_is_that_board_s_day(chat):
    monday = datetime(2019, 10, 7, 6, 45, tzinfo=TORONTO)
    chat("good morning is there school today in brampton", at=monday)
    reply = chat("what about my other one at dufferin peel catholic high school")
    assert "Dufferin-Peel CDSB, today, Monday, October 7: not confirmed" in reply.split("\n")[0]


def test_how_long_until_asks_when_and_how_long_will_it_last_asks_how_long(chat):
    evening = datetime(2019, 10, 3, 19, 25, tzinfo=TORONTO)
    assert chat("how long until the strike", at=evening).startswith("Mon Oct 7: A full strike could begin")
    assert not chat("how many days till the walkout").startswith("I don't know: none of the reports says how long")
    assert chat("how long will the strike last").startswith("I don't know: none of the reports says how long")


def test_open_alone_after_a_board_s_day_asks_that_day_again(chat):
    chat("monday?")
    chat("tdsb")
    assert chat("open?").startswith("TDSB, Monday, October 7: not confirmed.")


def test_whether_the_strike_can_still_be_stopped_before_a_day_is_about_the_talks(chat):
    friday = datetime(2019, 10, 4, 13, 40, tzinfo=TORONTO)
    chat("is peel open monday", at=friday)
    reply = chat("and is there any chance they stop the strike before monday")
    assert reply.startswith("CUPE, the province and the school boards are due to resume talks")
