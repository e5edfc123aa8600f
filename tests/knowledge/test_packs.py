from knowledge.packs import LEGACY_PHASES, header_from_json, header_to_json, legacy_header, read_header

INTENTS = ("school_status", "dispute_issues", "unknown")

HEADER = {
    "id": "cupe-2022-walkout", "title": "November 2022 CUPE walkout", "boards": ["tdsb", "pdsb"],
    "ended": "2022-11-20T18:00:00-05:00", "end_text": "The walkout ended; schools are open as usual.",
    "phases": [{"id": "walkout", "name": "walkout", "name_fr": "débrayage", "from": "2022-11-04", "until": "2022-11-07"}],
    "statuses": [{"id": "online_only", "words": "closed to students; classes are online"}],
    "topics": [{"id": "bill_28", "intent": "dispute_issues"}],
}


def test_a_header_with_its_own_phase_status_and_topic():
    problems: list[str] = []
    info = read_header(HEADER, "walkout.yaml", {"tdsb", "pdsb"}, INTENTS, problems)
    assert problems == []
    assert info.phase("walkout").name_fr == "débrayage" and info.phase("walkout").until.day == 7
    assert info.status_words("online_only") == "closed to students; classes are online"
    assert info.status_words("online_only", "fr") == "closed to students; classes are online"  # no French given
    assert info.status_words("remote_learning", "fr").startswith("fermé aux élèves")
    assert "online_only" in info.status_ids() and "closed" in info.status_ids()
    assert info.concerns("tdsb") and not info.concerns("ocdsb")
    assert info.topics[0].intent == "dispute_issues" and info.ended.year == 2022


def test_header_problems_name_the_field():
    bad = {**HEADER, "boards": ["nowhere"], "colour": "red",
           "phases": [{"id": "walkout", "name": "walkout", "from": "2022-11-07", "until": "2022-11-04"}, "x"],
           "topics": [{"id": "bill_28", "intent": "laws"}]}
    del bad["title"]
    problems: list[str] = []
    read_header(bad, "walkout.yaml", {"tdsb"}, INTENTS, problems)
    assert "pack: 'boards': 'nowhere' is not a board of any loaded region" in problems
    assert "pack: 'title' is missing" in problems
    assert any(p.startswith("pack: unknown field(s): colour; known: boards, ") for p in problems)
    assert "pack.phases[0] (walkout): 'until' 2022-11-04 is before 'from' 2022-11-07" in problems
    assert "pack.phases[1]: must be a mapping of fields (id and name, ...), got text" in problems
    assert any(p.startswith("pack.topics[0] (bill_28): 'intent': 'laws' is not an intent") for p in problems)


def test_a_file_without_a_header_is_a_pack_named_after_it():
    info = legacy_header("config/knowledge/cupe-2019.yaml")
    assert info.id == "cupe-2019" and info.phases == LEGACY_PHASES and info.concerns("anything")


def test_a_header_survives_the_packs_table():
    problems: list[str] = []
    info = read_header(HEADER, "walkout.yaml", {"tdsb", "pdsb"}, INTENTS, problems)
    assert header_from_json(header_to_json(info)) == info


def test_staff_texts_have_length_limits():
    problems: list[str] = []
    read_header({**HEADER, "note": "x " * 150, "examples": ["is school open?"] * 9}, "w.yaml", {"tdsb", "pdsb"},
                INTENTS, problems)
    assert "pack: 'note': 299 characters; at most 200" in problems
    assert "pack: 'examples': 9 examples; at most 8" in problems
