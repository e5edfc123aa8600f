"""Regions as data: a region file brings its boards, time zone, languages and words; packs name their region.

Loading a region never touches another region's boards; the shipped region is not loaded again over one an
operator loaded; a deployment of another region answers in its time zone and its default language, with its
own examples and places to look, and never names an Ontario board, ministry or city.
"""

from __future__ import annotations

import re
import shutil
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.app import build_bot, open_knowledge
from bot.settings import CONFIG_DIR, Settings
from knowledge.loader import ensure_default_knowledge, load_knowledge_file, load_region_file
from knowledge.loading import LoadError
from knowledge.regions import load_region
from tests.conftest import message

REGIONS = CONFIG_DIR / "regions"
PACKS = CONFIG_DIR / "knowledge"
EDMONTON = ZoneInfo("America/Edmonton")
ONTARIO_WORDS = re.compile(r"\b(peel|tdsb|toronto|mississauga|york catholic|cepeo|ontario)\b", re.IGNORECASE)


def deployment(tmp_path, template_db, region: str, pack: str):
    """A database as docs/packs.md sets one up: the region file loaded, then its pack, then only that pack used."""
    path = tmp_path / "schoolbot.db"
    shutil.copyfile(template_db, path)
    settings = Settings().replace("database", path=str(path))
    store = open_knowledge(settings)
    load_region_file(store, REGIONS / f"{region}.yaml")
    load_knowledge_file(store, PACKS / f"{pack}.yaml")
    store.use_packs([pack])
    return settings, store


@pytest.fixture(scope="module")
def alberta(tmp_path_factory, template_db):
    settings, store = deployment(tmp_path_factory.mktemp("alberta"), template_db, "alberta", "alberta-teachers-2025")
    yield build_bot(settings, store=store)
    store.close()


@pytest.fixture(scope="module")
def quebec(tmp_path_factory, template_db):
    settings, store = deployment(tmp_path_factory.mktemp("quebec"), template_db, "quebec", "qc-2023-front-commun-fae")
    yield build_bot(settings, store=store)
    store.close()


def ask(bot, text: str, at: datetime, user: str = "p1") -> str:
    return "\n".join(r.text for r in bot.handle(message(text, at=at, user=user)))


def test_every_shipped_region_validates():
    for path in sorted(REGIONS.glob("*.yaml")):
        region, boards = load_region(path)
        assert region.id == path.stem and boards, path


def test_a_region_brings_its_boards_and_leaves_the_other_regions_boards(store):
    region, count = load_region_file(store, REGIONS / "alberta.yaml")
    assert region.timezone == "America/Edmonton" and count >= 13
    ids = {row[0] for row in store.conn.execute("SELECT id FROM boards")}
    assert {"tdsb", "pdsb"} <= ids  # Ontario's are still there
    # The active pack is Ontario's: answers see Ontario's boards only.
    assert "tdsb" in store.knowledge().boards and not set(store.knowledge().boards) & {"eps", "cbe"}


def test_a_board_id_of_another_region_is_refused_naming_both(store, tmp_path):
    clash = tmp_path / "clash.yaml"
    clash.write_text("region: {id: elsewhere, name: Elsewhere, timezone: UTC, languages: [en]}\n"
                     "boards:\n  - {id: tdsb, name: Another TDSB, system: public, language: english, "
                     "website: https://example.org}\n")
    with pytest.raises(LoadError, match="board id 'tdsb' is already a board of region 'ontario'"):
        load_region_file(store, clash)


def test_a_bad_region_header_names_the_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("region: {id: x, name: X, timezone: Mars/Olympus, languages: [en, de], colour: red}\nboards: []\n")
    with pytest.raises(LoadError) as caught:
        load_region(bad)
    text = str(caught.value)
    assert "unknown field(s): colour; known: " in text and "'timezone': 'Mars/Olympus' is not a time zone" in text
    assert "'languages'" in text


def test_an_upgrade_never_reloads_a_region_the_operator_loaded(store, tmp_path):
    mine = tmp_path / "ontario-mine.yaml"
    mine.write_text((REGIONS / "ontario.yaml").read_text().replace("name: Toronto District School Board",
                                                                     "name: Toronto DSB (ours)"))
    load_region_file(store, mine)
    store.conn.execute("UPDATE meta SET value = 'an older release' WHERE key = 'default_digest'")
    assert ensure_default_knowledge(store, REGIONS / "ontario.yaml", PACKS / "cupe-2019.yaml") is True
    assert store.knowledge().board("tdsb").name == "Toronto DSB (ours)"


def test_a_pack_naming_a_region_not_loaded_is_warned(store, tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text("pack: {id: p, title: P, region: atlantis}\nsources: []\n")
    from knowledge.loader import validate_knowledge_file

    warnings = validate_knowledge_file(store, pack).warnings
    assert any("region 'atlantis' is not loaded" in w for w in warnings)


def test_tomorrow_late_at_night_is_the_regions_tomorrow(alberta):
    late = datetime(2025, 10, 8, 22, 30, tzinfo=EDMONTON)  # 00:30 on Thursday in Toronto
    reply = ask(alberta, "is there school tomorrow in edmonton", late)
    assert reply.startswith("Edmonton Public, tomorrow, Thursday, October 9: closed"), reply


def test_the_regions_payment_card_answers_not_ontarios_ministry(alberta):
    reply = ask(alberta, "when does the parent payment come", datetime(2025, 10, 20, 9, 0, tzinfo=EDMONTON))
    assert "$30" in reply or "Oct. 31" in reply, reply
    assert not ONTARIO_WORDS.search(reply), reply


def test_who_is_on_strike_comes_from_the_pack_header_before_any_fact(alberta):
    reply = ask(alberta, "who is going on strike", datetime(2025, 9, 30, 12, 0, tzinfo=EDMONTON))
    assert "teachers" in reply.lower() and "I have no information" not in reply, reply


@pytest.mark.parametrize("text", ["hello", "/help", "asdfgh qwerty", "is school open", "/board"])
def test_no_reply_in_alberta_names_ontario(alberta, text):
    reply = ask(alberta, text, datetime(2025, 10, 8, 9, 0, tzinfo=EDMONTON), user=f"u-{text}")
    assert not ONTARIO_WORDS.search(reply), reply


@pytest.mark.parametrize("text", ["Laval?", "/start", "cssdm demain"])
def test_a_french_first_region_answers_unclear_messages_in_french(quebec, text):
    at = datetime(2023, 11, 27, 9, 0, tzinfo=ZoneInfo("America/Toronto"))
    reply = ask(quebec, text, at, user=f"q-{text}")
    assert re.search(r"[àâçéèêëîïôûù«»]|\b(votre|vous|demain|conseil|centre)\b", reply, re.IGNORECASE), reply
    assert not ONTARIO_WORDS.search(reply), reply


def test_a_set_written_from_the_news_is_scored_on_its_replies_words(alberta, tmp_path):
    """Blind sets of a region's dispute carry no intents (their writers never saw the bot's): eval scores the
    replies' words, and a line with neither intent nor reply_has is refused naming its line."""
    from bot.evaluation import evaluate, read_jsonl

    good = tmp_path / "news.jsonl"
    good.write_text('{"text": "is school open tomorrow in edmonton", "now": "2025-10-08T21:00:00-06:00", '
                    '"reply_has": ["closed"]}\n')
    report = evaluate(alberta, read_jsonl(str(good)))
    assert report.reply_words() == (1.0, 1)
    assert "(no intents: scored on the replies' words)" in report.render() and "intent accuracy" not in report.render()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "hi", "now": "2025-10-08T21:00:00-06:00"}\n')
    with pytest.raises(ValueError, match="bad.jsonl:1: needs an intent, or reply_has words"):
        read_jsonl(str(bad))


def test_a_packs_own_examples_and_slang_reach_the_matcher(store, tmp_path):
    """`intent_examples:` and `slang:` in a pack's header are matcher data while the pack is active."""
    from bot.app import build_bot as build
    from knowledge.pack_words import MAX_EXAMPLES

    pack = tmp_path / "words.yaml"
    pack.write_text("pack:\n  id: words\n  title: Words\n  intent_examples:\n    childcare: [where do the kids go "
                    "during the zorblax]\n  slang:\n    zorblax: strike\nsources: []\n")
    load_knowledge_file(store, pack)
    store.use_packs(["words"])
    matcher = build(Settings().replace("database", path=store.path), store=store).matcher
    assert ("childcare", "where do the kids go during the zorblax") in matcher.data.examples
    assert matcher.data.slang["zorblax"] == "strike"
    too_many = tmp_path / "many.yaml"
    questions = ", ".join(f"question number {n}" for n in range(MAX_EXAMPLES + 1))
    too_many.write_text(f"pack:\n  id: many\n  title: Many\n  intent_examples:\n    nowhere: [a]\n    childcare: [{questions}]\n"
                        "sources: []\n")
    with pytest.raises(LoadError) as caught:
        load_knowledge_file(store, too_many)
    assert "pack.intent_examples.nowhere: 'nowhere' is not an intent" in str(caught.value)
    assert f"pack.intent_examples: {MAX_EXAMPLES + 1} examples; at most {MAX_EXAMPLES}" in str(caught.value)


def test_the_knowledges_own_words_are_never_corrected_into_another_topic(alberta):
    """Alberta's cards speak of "mediation": a parent's "mediation" is not the health topic's "medication" (the
    spelling corrector knows the active knowledge's words, and only corrects into the shipped ones)."""
    at = datetime(2025, 10, 17, 16, 30, tzinfo=EDMONTON)
    assert "mediation" in alberta.matcher.vocabulary
    assert alberta.matcher.analyse("so did teachers accept the mediation thing or not", at.date()).out_of_scope is None
    assert "sick child" not in ask(alberta, "so did teachers accept the mediation thing or not", at)
    assert alberta.matcher.analyse("my son needs his medicaton at school", at.date()).out_of_scope is not None


def test_a_packs_card_asked_about_a_topic_the_intents_leave_out_answers_it(quebec):
    """Exams are out of scope for the shipped intents; the Quebec pack's card whose own question is about exams
    answers, though the parent's words ("examen du ministere") and the card's differ."""
    at = datetime(2024, 1, 9, 20, 0, tzinfo=ZoneInfo("America/Toronto"))
    reply = ask(quebec, "examen du ministere 4e secondaire histoire ça compte encore pour 50%?", at)
    assert "20 %" in reply and "aucune information" not in reply


def test_the_nearest_card_answers_where_the_intent_has_no_news_yet(alberta):
    """Before any fact on the talks, "are they still talking?" gets the pack's card, not "no news on the talks"."""
    at = datetime(2025, 10, 3, 17, 40, tzinfo=EDMONTON)
    reply = ask(alberta, "Are they still talking?? any chance the strike is called off this weekend", at)
    assert "no news on the talks" not in reply and "Oct. 6" in reply


def test_a_status_or_card_for_a_board_outside_the_packs_boards_is_a_warning(store, tmp_path):
    from knowledge.loader import validate_knowledge_file

    pack = tmp_path / "one.yaml"
    pack.write_text("pack: {id: one, title: One, boards: [tdsb]}\nsources:\n  - {file: a.txt, title: A, published: "
                    "2031-03-01T10:00:00-05:00}\nstatuses:\n  - {id: s1, board: pdsb, from: 2031-03-03, status: closed, "
                    "summary: Closed., source: a.txt}\n  - {id: s2, board: all, from: 2031-03-03, status: closed, "
                    "summary: Closed., source: a.txt}\ncards:\n  - {id: c1, topic: childcare, question: Is daycare open?, "
                    "answer: Yes., boards: [tdsb, pdsb], source: a.txt}\n  - {id: c2, topic: childcare, question: "
                    "Is camp open?, answer: Yes., boards: [tdsb], source: a.txt}\n")
    warnings = validate_knowledge_file(store, pack).warnings
    assert [w for w in warnings if "pack's boards" in w] == [
        "statuses[0] (s1): board 'pdsb' is not one of the pack's boards (pack.boards): this status will never be "
        "said; add the board there, or remove the status",
        "cards (c1): board(s) 'pdsb' not one of the pack's boards (pack.boards), the boards it speaks for: add them "
        "there, or remove them from the card"]


def test_statuses_published_at_the_same_time_follow_the_file_order_not_their_ids(settings, store, shared_matcher,
                                                                                 tmp_path):
    """Renaming an entry id never flips which of two statuses of one time applies: the later in the file wins."""
    from tests.conftest import TORONTO

    def reply_with(first: str, second: str) -> str:
        pack = tmp_path / "ties.yaml"
        pack.write_text(
            "pack: {id: ties, title: Ties}\nsources:\n  - {file: a.txt, title: A, published: 2031-03-01T10:00:00-05:00}\n"
            f"statuses:\n  - {{id: {first}, board: tdsb, from: 2031-03-03, status: closed, summary: Closed., source: a.txt}}\n"
            f"  - {{id: {second}, board: tdsb, from: 2031-03-03, status: open, summary: Open., source: a.txt}}\n")
        load_knowledge_file(store, pack)
        store.use_packs(["ties"])
        bot = build_bot(settings, store=store, matcher=shared_matcher)
        return ask(bot, "is tdsb open monday", datetime(2031, 3, 2, 9, 0, tzinfo=TORONTO), user=first)

    assert reply_with("a-first", "z-second").startswith("TDSB, tomorrow, Monday, March 3: open")
    assert reply_with("z-first", "a-second").startswith("TDSB, tomorrow, Monday, March 3: open")


def test_a_question_naming_no_board_is_about_the_one_district_on_strike(tmp_path, template_db):
    """Chicago's strike concerns one district serving places (and the charter schools, which serve none): a
    status question naming no board is about Chicago Public Schools, not "which board is your child's?"."""
    settings, store = deployment(tmp_path, template_db, "chicago", "ctu-2019-strike")
    try:
        bot = build_bot(settings, store=store)
        reply = ask(bot, "school tomorrow?", datetime(2019, 10, 21, 21, 0, tzinfo=ZoneInfo("America/Chicago")))
        assert reply.startswith("CPS, tomorrow, Tuesday, October 22: classes canceled"), reply
    finally:
        store.close()


def test_boards_that_say_what_holds_everywhere_are_not_listed_and_long_lists_are_counted(alberta, quebec):
    """Eleven Alberta divisions "closed" under "province-wide: closed" add nothing to a phone's screen; eleven
    Quebec boards "open" are named four at a time."""
    alberta_reply = ask(alberta, "is school open tomorrow?", datetime(2025, 10, 8, 21, 0, tzinfo=EDMONTON), user="list")
    assert "Boards that said something" not in alberta_reply, alberta_reply
    quebec_reply = ask(quebec, "y a tu de l'école aujourd'hui?", datetime(2023, 11, 27, 8, 0, tzinfo=ZoneInfo("America/Toronto")),
                       user="liste")
    assert "et 8 autres : ouvert" in quebec_reply, quebec_reply


def test_the_question_back_names_the_region_s_kind_of_board(alberta, quebec):
    """"Which board is your child's?" is Ontario's word: a division in Alberta, a centre de services in Quebec."""
    alberta_reply = ask(alberta, "is school open tomorrow?", datetime(2025, 10, 8, 21, 0, tzinfo=EDMONTON), user="ask")
    assert "Which school division is your child's?" in alberta_reply, alberta_reply
    assert "board" not in alberta_reply.split("\n")[0], alberta_reply
    quebec_reply = ask(quebec, "y a tu de l'école demain?", datetime(2023, 11, 20, 20, 0, tzinfo=ZoneInfo("America/Toronto")),
                       user="demande")
    assert "conseil scolaire" not in quebec_reply, quebec_reply


def test_the_help_names_the_regions_kind_of_board(alberta, quebec):
    edmonton = datetime(2025, 10, 8, 10, 0, tzinfo=EDMONTON)
    assert "/board NAME - Set or show your school division" in ask(alberta, "/help", edmonton)
    montreal = datetime(2023, 11, 20, 10, 0, tzinfo=ZoneInfo("America/Toronto"))
    assert "votre centre de services scolaire" in ask(quebec, "/aide", montreal)


def test_a_packs_text_on_a_topic_the_intents_leave_out_answers_before_where_to_look(quebec):
    """Strike pay is out of scope for the shipped intents; Quebec's pack says FAE teachers have no strike fund."""
    at = datetime(2023, 12, 5, 10, 0, tzinfo=ZoneInfo("America/Toronto"))
    reply = ask(quebec, "C'est n'importe quoi, les profs FAE ont même pas de fonds de grève?? Ils vont tenir combien de temps", at)
    assert reply.startswith("Non : les profs de la FAE n'ont pas de fonds de grève")
