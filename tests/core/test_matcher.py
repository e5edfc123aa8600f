"""The matcher: intents, boards and dates from messages as parents type them."""

from datetime import date

import pytest

THU = date(2019, 10, 3)


@pytest.fixture
def analyse(bot):
    return lambda text, today=THU: bot.matcher.analyse(text, today)


@pytest.mark.parametrize(
    "text, intent",
    [
        ("will schools be open on monday", "school_status"),
        ("r skools open mon", "school_status"),  # slang and a typo
        ("IS SCHOOL CLOSED TOMORROW", "school_status"),
        ("is schol opn tmrw", "school_status"),
        ("when does the full strike start", "strike_dates"),
        ("what did the custodians stop doing", "withdrawn_services"),
        ("is before and after school care still running", "childcare"),
        ("do i need to find a babysitter", "childcare"),
        ("are they still negotiating", "negotiations"),
        ("are teachers on strike too", "who_is_affected"),
        ("what is the fight about", "dispute_issues"),
        ("what does work to rule mean", "work_to_rule"),
        ("where do i get official updates", "updates_source"),
        ("notify me if schools close", "subscribe"),
        ("stop sending me alerts", "unsubscribe"),
        ("my kids go to peel", "set_board"),
        ("hello", "help"),
        ("thanks!", "help"),
        ("tell me a joke", "unknown"),
    ],
)
def test_intents(analyse, text, intent):
    assert analyse(text).intent == intent


def test_question_buried_in_a_long_message(analyse):
    text = (
        "Good evening, sorry to bother you. My son is in grade 4 and my partner works nights so we are "
        "trying to plan ahead. I saw on the news that the union gave notice. Is school going to be open on "
        "Monday in Brampton? Thank you so much for your help"
    )
    result = analyse(text)
    assert (result.intent, result.board.board_id, result.date.day) == ("school_status", "pdsb", date(2019, 10, 7))


@pytest.mark.parametrize(
    "text, topic",
    [
        ("are the school buses running monday", "bus"),
        ("when do report cards come out", "report"),
        ("will parents get paid anything for childcare costs during the strike", "pay"),
    ],
)
def test_out_of_scope_topics_are_not_answered_by_the_nearest_intent(analyse, text, topic):
    result = analyse(text)
    assert result.intent == "unknown"
    assert result.out_of_scope is not None
    assert topic in result.out_of_scope.topic


def test_abstains_on_gibberish_and_low_confidence(analyse):
    for text in ("asdf qwer zxcv", "banana", "the of and", "????"):
        result = analyse(text)
        assert result.intent == "unknown", text


def test_abstains_when_two_intents_are_too_close(bot):
    matcher = bot.matcher
    saved = matcher.min_margin
    try:
        matcher.min_margin = 1.0  # no answer can be that far ahead...
        matcher.SURE_SCORE = 1.01  # ...nor that sure
        assert matcher.analyse("is school open monday", THU).intent == "unknown"
    finally:
        matcher.min_margin = saved
        del matcher.SURE_SCORE


def test_a_sure_reading_answers_though_another_is_as_close(bot):
    analysis = bot.matcher.analyse("why did talks end", THU)
    assert analysis.intent == "dispute_issues" and not analysis.abstained
    assert analysis.scores["negotiations"] > analysis.confidence - bot.matcher.min_margin


@pytest.mark.parametrize(
    "text, board",
    [
        ("is peel open", "pdsb"),
        ("is peal open", "pdsb"),  # typo
        ("tdbs open monday", "tdsb"),  # transposed letters
        ("Toronto District School Board", "tdsb"),
        ("my kids go to school in Mississauga", "pdsb"),
        ("mississauga catholic schools", "dpcdsb"),
        ("the catholic board in toronto", "tcdsb"),
        ("york catholic open?", "ycdsb"),
        ("markham schools", "yrdsb"),
        ("is ottawa closing schools", "ocdsb"),
        ("ottawa catholic", "ocsb"),
        ("hamilton", "hwdsb"),
        ("hamilton catholic", "hwcdsb"),
        ("schools in oshawa", "ddsb"),
        ("london ont", "tvdsb"),
        ("scarborough", "tdsb"),
        ("missisauga schools open", "pdsb"),
    ],
)
def test_boards(analyse, text, board):
    found = analyse(text).board
    assert found is not None and found.board_id == board


@pytest.mark.parametrize(
    "text",
    ["what is the job action about", "why are they striking", "has the province made an offer",
     "I feel like this will never end", "is it about money", "what are the main issues"],
)
def test_ordinary_words_are_not_read_as_misspelt_boards(analyse, text):
    assert analyse(text).board is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("is school open monday", date(2019, 10, 7)),
        ("school tmrw?", date(2019, 10, 4)),
        ("open on oct 8", date(2019, 10, 8)),
        ("what about the 7th", date(2019, 10, 7)),
        ("2019-10-09 open?", date(2019, 10, 9)),
    ],
)
def test_dates(analyse, text, expected):
    assert analyse(text).date.day == expected


def test_weekend_is_noticed_but_no_single_day(analyse):
    result = analyse("is there anything happening this weekend")
    assert result.date is None and result.weekend


@pytest.mark.parametrize(
    "text, intent, argument",
    [
        ("/start", "help", ""),
        ("/help", "help", ""),
        ("/board peel", "set_board", "peel"),
        ("/status@schoolbot tdsb monday", "school_status", "tdsb monday"),
        ("/subscribe all", "subscribe", "all"),
        ("/unsubscribe", "unsubscribe", ""),
    ],
)
def test_commands(analyse, text, intent, argument):
    result = analyse(text)
    assert (result.intent, result.argument, result.confidence) == (intent, argument, 1.0)


def test_a_board_alone_sets_the_board(analyse):
    result = analyse("York Region District School Board")
    assert (result.intent, result.board.board_id) == ("set_board", "yrdsb")


def test_a_date_alone_asks_about_school(analyse):
    assert analyse("what about tuesday?").intent == "school_status"


@pytest.mark.parametrize(
    "text, board",
    [
        ("switch me from peel to halton", "hdsb"),
        ("we moved from tdsb to york catholic", "ycdsb"),
        ("change tdsb to durham please", "ddsb"),
        ("is peel going to close schools", "pdsb"),  # "to" without a second board
    ],
)
def test_the_board_after_to_is_meant(analyse, text, board):
    assert analyse(text).board.board_id == board


def test_a_board_said_not_to_be_meant_is_skipped(analyse):
    assert analyse("not TDSB, my kid is in Peel").board.board_id == "pdsb"
    assert analyse("we're not in york region, we're in durham").board.board_id == "ddsb"


def test_a_board_and_a_day_in_one_sentence_is_a_status_question(analyse):
    result = analyse("I'm in Peel btw, are we open monday")
    assert (result.intent, result.board.board_id, result.date.day) == ("school_status", "pdsb", date(2019, 10, 7))


def test_a_school_question_beside_an_out_of_scope_topic(analyse):
    mixed = analyse("should he take the bus Monday or is school cancelled?")
    assert mixed.intent == "school_status" and "bus" in mixed.out_of_scope.topic
    # the other topic alone, or the school words inside it, stay out of scope
    assert analyse("is the school bus running tomorrow").intent == "unknown"


def _match(card_id: str, topic: str, score: float):
    from datetime import datetime

    from bot.cards import Match
    from knowledge.model import Card

    when = datetime.fromisoformat("2019-10-02T20:00:00-04:00")
    return Match(Card(card_id, topic, f"{card_id}?", f"Answer {card_id}.", "s.txt", when), score)


def test_a_sure_intent_settles_between_two_close_cards():
    from bot.answering.card_choice import choose

    own, other = _match("why", "dispute_issues", 0.48), _match("when", "strike_dates", 0.46)
    assert choose([own, other], "dispute_issues", 0.74, False).card is own.card  # no "Do you mean"
    weak = [_match("meals", "unknown", 0.42), _match("cleaning", "withdrawn_services", 0.41)]
    assert choose(weak, "who_is_affected", 0.65, False).choices == ()  # no choice between two off-topic cards
    close = [_match("a", "who_is_affected", 0.50), _match("b", "who_is_affected", 0.49)]
    assert len(choose(close, "who_is_affected", 0.65, False).choices) == 2  # both about it: the parent picks
    unsure = [_match("c", "childcare", 0.50), _match("d", "strike_dates", 0.49)]
    assert len(choose(unsure, "unknown", 0.2, True).choices) == 2


def test_a_message_asked_again_is_understood_alike_whatever_answering_did_to_the_first(bot, analyse):
    first = analyse("is school open monday in peel")
    first.intent, first.scores["help"], first.weekend = "unknown", 9.0, True  # as answering overrules it
    again = analyse("is school open monday in peel")
    assert again is not first and (again.intent, again.weekend) == ("school_status", False)
    assert again.scores["help"] < 1 and again.board.board_id == "pdsb"
    long = "is school open monday in peel " + "please " * 100  # longer than what is remembered
    assert bot.matcher.analyse(long, THU).intent == "school_status"


def _sentences_as_split(matcher, blanked: str) -> list[str]:
    """What segments() gives, the long way: every sentence through the regular expression."""
    from bot.sentences import RUMOUR, IS_IT_TRUE, QUESTION_WORDS, SENTENCE

    if len(blanked) < 20:
        return []
    questions, others, said = [], [], ""
    for match in SENTENCE.finditer(blanked):
        words = matcher._words(match.group(1))
        asked = bool(words) and (match.group(2).startswith("?") or words[0] in QUESTION_WORDS)
        if asked and said and " ".join(words) in IS_IT_TRUE:  # "..., is that true?": the sentence before's claim
            questions.append(RUMOUR.sub("", said, count=1) or said)
        elif len(words) >= 2:
            (questions if asked else others).append(" ".join(words))
        said = " ".join(words) if len(words) >= 2 else said
    return questions or others


def test_a_message_of_one_sentence_is_found_so_without_splitting_it(bot):
    import json
    from pathlib import Path

    from bot.text import normalize

    matcher = bot.matcher
    texts = ["is school open monday?? ", "is school open - ", "? is school open monday", "ok but is school open monday",
             "is school open monday, or tuesday", "custodians: will they clean", "il y a de l'ecole lundi? merci"]
    for name in ("fr_dev.jsonl", "answers_dev.jsonl", "en_dev2.jsonl"):
        path = Path(__file__).parents[1] / "data" / name
        texts += [json.loads(line)["text"] for line in path.read_text().splitlines() if line.strip()]
    for text in texts:
        blanked = matcher._prepare(normalize(text), THU)[3]
        assert matcher.segments(blanked) == _sentences_as_split(matcher, blanked), text


def test_a_known_word_with_an_ending_is_not_corrected_into_another_word(shared_matcher):
    """'packing' is 'pack' + 'ing': it stays itself, not the vocabulary's 'parking' one letter away."""
    assert "parking" not in shared_matcher._words("packing lunches")
    assert shared_matcher._words("packing lunches")[0] == "packing"
