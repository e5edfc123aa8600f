import dataclasses
from pathlib import Path

import pytest

from bot.settings import Settings
from knowledge.loader import ensure_default_knowledge, load_knowledge_file
from knowledge.loading import LoadError, load_boards, load_knowledge
from knowledge.regions import load_region
from knowledge.store import open_store

DEFAULTS = Settings().knowledge
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def test_shipped_boards_validate():
    boards = load_region(DEFAULTS.region)[1]
    ids = {b.id for b in boards}
    for expected in ("tdsb", "tcdsb", "pdsb", "dpcdsb", "yrdsb", "ycdsb", "ocdsb", "ocsb", "hwdsb", "hwcdsb",
                     "ddsb", "tvdsb", "hdsb", "wrdsb"):
        assert expected in ids
    kinds = {(b.system, b.language) for b in boards}
    assert kinds == {("public", "english"), ("catholic", "english"), ("public", "french"), ("catholic", "french")}
    assert len(boards) >= 70


def test_shipped_knowledge_validates_and_cites_sources():
    boards = load_region(DEFAULTS.region)[1]
    kfile = load_knowledge(DEFAULTS.default, [b.id for b in boards])
    files = {s.file for s in kfile.sources}
    entries = [*kfile.facts, *kfile.statuses, *kfile.withdrawn_services, *kfile.timeline]
    assert entries
    for entry in entries:
        assert entry.source in files
        assert entry.published.tzinfo is not None
    if SEEDS.is_dir():
        assert files <= {p.name for p in SEEDS.iterdir()}


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds not present")
def test_default_knowledge_does_not_copy_article_sentences():
    """Our own words: no run of 10 words from an article appears in the knowledge."""
    import re

    def runs(text, n=10):
        words = re.findall(r"[a-z0-9$%]+", text.lower())
        return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}

    article_runs = set()
    for path in SEEDS.glob("2019*.txt"):
        article_runs |= runs(path.read_text())
    ours = runs(Path(DEFAULTS.default).read_text())
    assert not (ours & article_runs)


def write(tmp_path, text, name="k.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


GOOD = """
sources:
  - file: a.txt
    title: An article
    published: 2019-10-02T20:00:00-04:00
statuses:
  - id: pdsb-strike
    board: pdsb
    from: 2019-10-07
    status: closures_possible
    summary: Peel is planning.
    source: a.txt
"""


def test_load_twice_changes_nothing(tmp_path, store):
    path = write(tmp_path, GOOD)
    load_knowledge_file(store, path)
    first = [dict(r) for r in store.db["statuses"].rows]
    load_knowledge_file(store, path)
    assert [dict(r) for r in store.db["statuses"].rows] == first


@pytest.mark.parametrize(
    "change, fragment",
    [
        (("board: pdsb", "board: nosuch"), "statuses[0] (pdsb-strike): board 'nosuch' is not a board of any loaded region"),
        (("status: closures_possible", "status: maybe"), "'status': 'maybe' is not one of"),
        (("source: a.txt\n", "source: b.txt\n"), "source 'b.txt' is not listed"),
        (("from: 2019-10-07", "from: next monday"), "'from': expected a date"),
        (("published: 2019-10-02T20:00:00-04:00", "published: 2019-10-02T20:00:00"), "has no UTC offset"),
        (("    summary: Peel is planning.\n", ""), "'summary' is missing"),
        (("    summary:", "    colour: red\n    summary:"), "unknown field(s): colour"),
    ],
)
def test_bad_entry_names_file_entry_and_problem(tmp_path, store, change, fragment):
    path = write(tmp_path, GOOD.replace(*change))
    before = store.db["statuses"].count
    with pytest.raises(LoadError) as info:
        load_knowledge_file(store, path)
    message = str(info.value)
    assert str(path) in message
    assert fragment in message
    assert store.db["statuses"].count == before  # nothing half-way


def test_a_bad_entry_loads_nothing_of_the_file(tmp_path, store):
    text = GOOD + """  - id: second
    board: tdsb
    from: 2019-10-07
    status: nonsense
    summary: x
    source: a.txt
"""
    with pytest.raises(LoadError):
        load_knowledge_file(store, write(tmp_path, text))
    assert not list(store.db["statuses"].rows_where("id = ?", ["pdsb-strike"]))


def test_not_yaml(tmp_path, store):
    with pytest.raises(LoadError, match="not valid YAML"):
        load_knowledge_file(store, write(tmp_path, "sources: [unclosed"))


def test_duplicate_ids_and_aliases_in_boards(tmp_path):
    text = """boards:
  - {id: aa, name: A board, system: public, language: english, website: https://a.example, aliases: [same]}
  - {id: aa, name: B board, system: public, language: english, website: https://b.example}
  - {id: bb, name: C board, system: public, language: english, website: https://c.example, aliases: [Same]}
"""
    with pytest.raises(LoadError) as info:
        load_boards(write(tmp_path, text, "boards.yaml"))
    assert "id 'aa' is used twice" in str(info.value)
    assert "alias 'Same' is also an alias of 'aa'" in str(info.value)


def test_every_shipped_board_has_a_short_name_shorter_than_its_name():
    boards = load_region(DEFAULTS.region)[1]
    assert all(b.short and len(b.short) < len(b.name) for b in boards)
    assert {b.id: b.display for b in boards if b.id in ("tdsb", "pdsb", "cepeo", "cecce")} == {
        "tdsb": "TDSB", "pdsb": "Peel DSB", "cepeo": "CEPEO", "cecce": "CECCE"}


def test_bad_short_names_name_file_entry_and_problem(tmp_path):
    text = """boards:
  - {id: aa, name: A long board, short: Long board name that is too long, system: public, language: english, website: https://a.example}
  - {id: bb, name: B board, short: BB, system: public, language: english, website: https://b.example}
  - {id: cc, name: C board, short: bb, system: public, language: english, website: https://c.example}
  - {id: dd, name: D board, short: "", system: public, language: english, website: https://d.example}
"""
    with pytest.raises(LoadError) as info:
        load_boards(write(tmp_path, text, "boards.yaml"))
    problems = str(info.value)
    assert "boards.yaml" in problems
    assert "boards[0] (aa): short name 'Long board name that is too long' must be shorter" in problems
    assert "boards[2] (cc): short name 'bb' is also the short name of 'bb'" in problems
    assert "boards[3] (dd): 'short': expected non-empty text" in problems


def test_default_knowledge_loads_once(tmp_path):
    store = open_store(tmp_path / "db.sqlite")
    assert ensure_default_knowledge(store, DEFAULTS.region, DEFAULTS.default) is True
    assert ensure_default_knowledge(store, DEFAULTS.region, DEFAULTS.default) is False
    assert store.knowledge().board("tdsb").name == "Toronto District School Board"


def test_reloading_boards_drops_a_renamed_one(store):
    boards = load_region(DEFAULTS.region)[1]
    renamed = [dataclasses.replace(b, id="limestone") if b.id == "ldsb" else b for b in boards]
    store.replace_boards(renamed, "ontario")
    ids = set(store.knowledge().boards)
    assert "limestone" in ids and "ldsb" not in ids


CARDS_FILE = """
sources:
  - {file: a.txt, title: A, published: 2019-09-05T12:00:00-04:00}
  - {file: b.txt, title: B, published: 2019-10-02T20:00:00-04:00}
cards:
  - id: over-early
    topic: strike_dates
    question: Is the strike over?
    answer: "No: it has not started; job action is possible from Sept. 23."
    phrasings: [is the strike over, is it done]
    source: a.txt
    fr: {question: La grève est-elle finie?, answer: "Non : elle n'a pas commencé.", phrasings: [la greve est finie]}
  - id: over-later
    topic: strike_dates
    question: Is the strike over?
    answer: "No: a full strike could start Monday, Oct. 7."
    source: b.txt
    replaces: over-early
    boards: [tdsb]
    valid_until: 2019-10-07T00:00:00-04:00
"""


def test_cards_load_and_show_only_while_current(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(CARDS_FILE)
    kfile = load_knowledge(path, ["tdsb", "pdsb"])
    early, later = kfile.cards
    assert early.phrasings == ("is the strike over", "is it done") and early.fr["phrasings"] == ("la greve est finie",)
    assert later.boards == ("tdsb",) and later.applies_to("tdsb") and not later.applies_to("pdsb")
    store = open_store(tmp_path / "k.db")
    store.load_file(kfile)
    knowledge = store.knowledge()
    at = later.published
    assert [c.id for c in knowledge.cards_at(at.replace(month=9, day=10))] == ["over-early"]
    assert [c.id for c in knowledge.cards_at(at)] == ["over-later"]  # the newer card replaces the older
    assert knowledge.cards_at(at.replace(day=8)) == []  # past its valid_until, and it hid the older one
    assert knowledge.card_by_id["over-early"].fr["answer"].startswith("Non")


def test_a_card_that_replaces_another_is_asked_the_same_ways(tmp_path):
    """A chain's later card lists no phrasings: it takes the replaced card's, English and French."""
    path = tmp_path / "pack.yaml"
    path.write_text(CARDS_FILE)
    early, later = load_knowledge(path, ["tdsb", "pdsb"]).cards
    assert later.phrasings == early.phrasings
    assert later.fr == {"phrasings": ("la greve est finie",)}
    own = CARDS_FILE.replace("    replaces: over-early", "    replaces: over-early\n    phrasings: [is it finished]")
    path.write_text(own)
    assert load_knowledge(path, ["tdsb", "pdsb"]).cards[1].phrasings == ("is it finished",)  # its own win


def test_a_card_without_french_is_warned_about_not_refused(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(CARDS_FILE)
    warnings = load_knowledge(path, ["tdsb", "pdsb"]).warnings
    assert "cards (over-later): no French text for question, answer (add fr: {question: ...})" in warnings
    assert not any("over-early" in w for w in warnings)  # it has its French question and answer


def test_a_bad_card_names_its_entry_and_problem(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(CARDS_FILE.replace("boards: [tdsb]", "boards: [nowhere]").replace("replaces: over-early", "replaces: gone"))
    with pytest.raises(LoadError) as error:
        load_knowledge(path, ["tdsb"])
    text = str(error.value)
    assert "cards[1] (over-later): board 'nowhere' is not a board of any loaded region" in text
    assert "'replaces' names 'gone'" in text
