"""Sixty bad configuration, pack and region files, each refused without a traceback (issue 23, done-when).

Each case breaks one thing in a good file (a settings file, a knowledge pack, a region) the way a staff member
or an operator might: a typo, a wrong type, a date that is not one, a reference to nothing, a file that is not
YAML at all. `schoolbot kb validate` (packs and regions) and `schoolbot ask --config` (settings and the data
files they name) must refuse each: a non-zero exit, the file named, one line per problem, never a traceback,
and nothing loaded.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from adapters.cli import main

REPO = Path(__file__).resolve().parents[2]
PACK = yaml.safe_load((REPO / "tests/data/packs/rotating-2027.yaml").read_text(encoding="utf-8"))
REGION = yaml.safe_load((REPO / "config/regions/alberta.yaml").read_text(encoding="utf-8"))


def _set(path: str, value) -> Callable[[dict], None]:
    """A change that sets the value at a dotted path ("cards.0.answer"); a value of _GONE deletes it."""
    def change(data: dict) -> None:
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        if value is _GONE:
            del node[int(last) if last.isdigit() else last]
        else:
            node[int(last) if last.isdigit() else last] = value
    return change


_GONE = object()


def _same_id(data: dict) -> None:
    data["cards"][1]["id"] = data["cards"][0]["id"]


PACK_CHANGES = {
    "pack id missing": _set("pack.id", _GONE),
    "pack id with spaces": _set("pack.id", "Bad Id!"),
    "pack header missing": _set("pack", _GONE),
    "pack header a list": _set("pack", ["id", "x"]),
    "started not a date": _set("pack.started", "soon"),
    "ended not a time": _set("pack.ended", "when it ends"),
    "phase without id": _set("pack.phases.0.id", _GONE),
    "phase from not a date": _set("pack.phases.0.from", "next week"),
    "source published not a time": _set("sources.0.published", "yesterday"),
    "source without file": _set("sources.0.file", _GONE),
    "fact citing no source": _set("facts.0.source", "nowhere.txt"),
    "fact with empty text": _set("facts.0.text", ""),
    "fact without topic": _set("facts.0.topic", _GONE),
    "status on no board": _set("statuses.0.board", "nosuchboard"),
    "status start not a date": _set("statuses.0.start", "2027-13-40"),
    "status until before start": _set("statuses.0.until", "2000-01-01"),
    "status word unknown": _set("statuses.0.status", "kinda-open"),
    "service in no phase": _set("withdrawn_services.0.phase", "no_such_phase"),
    "timeline day not a date": _set("timeline.0.day", "the 40th"),
    "card without answer": _set("cards.0.answer", _GONE),
    "two cards with one id": _same_id,
    "cards not a list": _set("cards", "all of them"),
    "card french not a mapping": _set("cards.0.fr", "en français"),
    "unknown section": _set("extras", [1, 2, 3]),
    "facts a mapping": _set("facts", {"a": 1}),
}

REGION_CHANGES = {
    "region id missing": _set("region.id", _GONE),
    "region timezone unknown": _set("region.timezone", "Mars/Olympus_Mons"),
    "region languages empty": _set("region.languages", []),
    "region language unknown": _set("region.languages", ["en", "klingon"]),
    "region header missing": _set("region", _GONE),
    "board without name": _set("boards.0.name", _GONE),
    "board system unknown": _set("boards.0.system", "charter-ish"),
    "board id with spaces": _set("boards.0.id", "edmonton public"),
    "boards not a list": _set("boards", "edmonton"),
    "two boards with one id": lambda data: data["boards"][1].__setitem__("id", data["boards"][0]["id"]),
}

NOT_YAML = {
    "syntax error": "pack: [unclosed\n",
    "empty file": "",
    "a list at the top": "- one\n- two\n",
    "a plain string": "just some words\n",
    "tabs for indentation": "pack:\n\tid: x\n",
}

SETTINGS = {
    "toml syntax error": "[knowledge\nregion = 'ontario'\n",
    "unknown section": "[knowlege]\nregion = 'ontario'\n",
    "unknown key": "[answers]\nstale_after = 3\n",
    "wrong type": "[answers]\nstale_after_days = 'three'\n",
    "out of range": "[limits]\nbroadcast_max_chars = 0\n",
    "negative days": "[answers]\nstale_after_days = -1\n",
    "bad time zone": "[knowledge]\ntimezone = 'Mars/Base'\n",
    "missing region file": "[knowledge]\nregion = '{tmp}/nope.yaml'\n",
    "region file is a folder": "[knowledge]\nregion = '{tmp}'\n",
    "intents file missing": "[knowledge]\nintents = '{tmp}/no-intents.yaml'\n",
    "intents file not yaml": "[knowledge]\nintents = '{tmp}/junk.yaml'\n",
    "subjects file missing": "[knowledge]\nsubjects = '{tmp}/no-subjects.yaml'\n",
    "port out of range": "[telegram]\nwebhook_port = 70000\n",
    "concurrency zero": "[limits]\ndelivery_concurrency = 0\n",
    "old boards key": "[knowledge]\nboards = 'config/boards.yaml'\n",
    "staff on no board": "[roles]\nboard_staff = ['telegram:777=tdbs']\n",
    "a value for a section": "knowledge = 3\n",
    "binary junk": "\x00\x01\x02\x03",
    "matcher confidence over 1": "[matcher]\nmin_confidence = 7\n",
    "coverage days negative": "[answers]\ncoverage_days = -3\n",
}


def _refused(capsys, argv: list[str], named: str) -> str:
    status = main(argv)
    out = capsys.readouterr()
    said = out.err + out.out
    assert status != 0, said
    assert "Traceback" not in said and "Error:" not in said.split("\n")[0][:6], said
    assert named in said, said
    problems = [line for line in out.err.splitlines() if line.strip()]
    assert problems and all(len(line) < 400 for line in problems), said  # each problem on a line of its own
    return said


BROKEN = [("pack", PACK, change) for change in sorted(PACK_CHANGES)] + \
         [("region", REGION, change) for change in sorted(REGION_CHANGES)]


@pytest.mark.parametrize(("kind", "good", "name"), BROKEN, ids=[f"{kind}: {name}" for kind, _, name in BROKEN])
def test_a_broken_pack_or_region_is_refused(tmp_path, capsys, kind, good, name):
    data = copy.deepcopy(good)
    (PACK_CHANGES if kind == "pack" else REGION_CHANGES)[name](data)
    path = tmp_path / f"{kind}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    _refused(capsys, ["kb", "validate", "--db", str(tmp_path / "x.db"), str(path)], f"{kind}.yaml")


@pytest.mark.parametrize("name", sorted(NOT_YAML))
def test_a_file_that_is_not_a_pack_is_refused(tmp_path, capsys, name):
    path = tmp_path / "pack.yaml"
    path.write_text(NOT_YAML[name], encoding="utf-8")
    _refused(capsys, ["kb", "validate", "--db", str(tmp_path / "x.db"), str(path)], "pack.yaml")


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_a_broken_settings_file_is_refused_before_anything_starts(tmp_path, capsys, name):
    (tmp_path / "junk.yaml").write_text("key: [unclosed\n", encoding="utf-8")
    config = tmp_path / "schoolbot.toml"
    config.write_text(SETTINGS[name].replace("{tmp}", str(tmp_path)), encoding="utf-8")
    said = _refused(capsys, ["ask", "--config", str(config), "--db", str(tmp_path / "x.db"), "is school open"],
                    "")
    assert str(config) in said or str(tmp_path) in said, said
    assert len([line for line in said.splitlines() if line.strip()]) == 1, said


def test_there_are_sixty():
    assert len(PACK_CHANGES) + len(REGION_CHANGES) + len(NOT_YAML) + len(SETTINGS) == 60
