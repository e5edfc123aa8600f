"""Every data file staff edit is refused the same way through its public loader (knowledge/fields.py): the file,
then each problem on one line as ENTRY: PROBLEM (a field's as ENTRY: 'FIELD': PROBLEM), never a traceback.

Each case takes a shipped file, breaks one thing (a wrong type, a missing key, an unknown key) and checks the
line the loader gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.dates.vocabulary import load_vocabulary
from bot.intent_data import load_intents
from bot.settings import CONFIG_DIR
from bot.subjects import load_subjects
from bot.wording import load_wording
from knowledge.loading import LoadError, load_knowledge
from knowledge.regions import load_region


def _intents(path):
    return load_intents(path)


def _subjects(path):
    return load_subjects(path)


def _wording(path):
    return load_wording(path)


def _dates(path):
    return load_vocabulary(path)


def _region(path):
    return load_region(path)


def _pack(path):
    return load_knowledge(path, [b.id for b in load_region(CONFIG_DIR / "regions" / "alberta.yaml")[1]])


FILES = {"intents": ("intents.yaml", _intents), "subjects": ("subjects.yaml", _subjects),
         "wording": ("wording.yaml", _wording), "dates": ("dates.yaml", _dates),
         "region": ("regions/alberta.yaml", _region), "pack": ("knowledge/alberta-teachers-2025.yaml", _pack)}


def _set(*keys, value=None, delete=False):
    def change(data):
        node = data
        for key in keys[:-1]:
            node = node[key]
        if delete:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value
    return change


CASES = [
    # intents.yaml
    ("intents", _set("intents", "childcare", "examples", value=12),
     "intents.childcare: 'examples': expected a list of text, got 12"),
    ("intents", _set("intents", "childcare", "examples", value=["who watches my kid", 12]),
     "intents.childcare: 'examples': item 2: expected non-empty text, got 12"),
    ("intents", _set("intents", "childcare", "examples", delete=True), "intents.childcare: 'examples' is missing"),
    ("intents", _set("intents", "childcare", "colour", value="red"),
     "intents.childcare: unknown field(s): colour; known: description, examples, keywords"),
    ("intents", _set("intents", "childcare", "keywords", value={"daycare": 2}),
     "intents.childcare: 'keywords': 'daycare': expected a number in (0, 1], got 2"),
    ("intents", _set("intents", "recess", value={"examples": ["x"]}), "intents.recess: unknown intent; known: "),
    ("intents", _set("slang", value=["tmrw"]), "'slang': expected a mapping of words, got ['tmrw']"),
    ("intents", _set("slang", "tmrw", value=1), "'slang': 'tmrw': expected the words it stands for"),
    ("intents", _set("out_of_scope", 0, "where", delete=True), "out_of_scope[0]: 'where' is missing"),
    ("intents", _set("colour", value="red"), "unknown section 'colour'; known: slang, intents, out_of_scope"),
    # subjects.yaml
    ("subjects", _set("subjects", "custodians", "name", value="Custodians"),
     "subjects.custodians: 'name': expected a mapping of languages (en, fr), got 'Custodians'"),
    ("subjects", _set("subjects", "custodians", "words", delete=True), "subjects.custodians: 'words' is missing"),
    ("subjects", _set("subjects", "custodians", "colour", value="red"),
     "subjects.custodians: unknown field(s): colour; known: name, where, words"),
    ("subjects", _set("presence", value="be there"), "'presence': must be a non-empty list of words or phrases"),
    # wording.yaml
    ("wording", _set("your_board", "fr", value=5), "your_board: 'fr': expected text, got 5"),
    ("wording", _set("your_board", "en", delete=True), "your_board: 'en' is missing"),
    ("wording", _set("your_board", "de", value="Ihr Schulamt"), "your_board: unknown field(s): de; known: en, fr"),
    ("wording", _set("your_board", value="Your board"),
     "your_board: must be a mapping of texts (en: English, fr: French), got text"),
    # dates.yaml
    ("dates", _set("french_names", "months", value="janvier"), "french_names: 'months': expected 12 names, got 'janvier'"),
    ("dates", _set("french_names", "months_short", delete=True), "french_names: 'months_short' is missing"),
    ("dates", _set("french_names", "days", value=["lundi"]),
     "french_names: unknown field(s): days; known: months, months_short, weekdays"),
    ("dates", _set("holidays", value=["christmas"]), "unknown section 'holidays'; known: weekdays, months"),
    # a region file
    ("region", _set("region", "languages", value="english"), "region: 'languages': ['english'] must list en and/or fr"),
    ("region", _set("region", "timezone", delete=True), "region: 'timezone' is missing"),
    ("region", _set("region", "colour", value="red"), "region: unknown field(s): colour; known: "),
    ("region", _set("boards", 0, "aliases", value=5), "boards[0] (eps): 'aliases': expected a list of text, got 5"),
    ("region", _set("boards", 0, "website", delete=True), "boards[0] (eps): 'website' is missing"),
    # a pack's header
    ("pack", _set("pack", "slang", value=["ata"]),
     "pack.slang: must map a word parents type to the words it means (ata: union), got a list"),
    ("pack", _set("pack", "intent_examples", value={"childcare": 12}),
     "pack.intent_examples.childcare: expected a list of text, got 12"),
    ("pack", _set("pack", "phases", 0, "stops", value="most"),
     "'stops': 'most' is not one of: some, all"),
    ("pack", _set("pack", "title", delete=True), "pack: 'title' is missing"),
]


@pytest.mark.parametrize(("kind", "change", "line"), CASES, ids=[f"{c[0]}: {c[2][:50]}" for c in CASES])
def test_a_broken_data_file_names_the_file_the_entry_and_the_problem(tmp_path, kind, change, line):
    name, load = FILES[kind]
    data = yaml.safe_load((CONFIG_DIR / name).read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / Path(name).name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        load(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: "), message
    assert any(line in problem for problem in caught.value.problems), message
    assert "Traceback" not in message and all(len(problem) < 400 and "\n" not in problem
                                               for problem in caught.value.problems)


@pytest.mark.parametrize("kind", sorted(FILES))
def test_the_shipped_data_files_load(kind):
    name, load = FILES[kind]
    assert load(CONFIG_DIR / name)
