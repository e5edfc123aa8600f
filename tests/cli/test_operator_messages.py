"""What an operator reads on the first day (issue 23, item 13): every warning of `kb validate`, one error for one
wrong `published`, the UTC offset a date really has, and staff roles granted by the board names parents use."""

from __future__ import annotations

import pytest

from adapters.cli import main
from knowledge.loading import LoadError, load_knowledge

BOARDS = ["tdsb", "pdsb"]


def _pack(facts: int, published: str = "2019-10-02T20:00:00-04:00") -> str:
    lines = ["sources:", "  - file: a.txt", "    title: An article", f"    published: {published}", "facts:"]
    for n in range(facts):
        lines += [f"  - id: fact-{n}", "    topic: negotiations", f"    text: Fact number {n}.", "    source: a.txt"]
    return "\n".join(lines) + "\n"


def test_kb_validate_shows_every_warning(tmp_path, capsys):
    path = tmp_path / "pack.yaml"
    path.write_text(_pack(25))
    assert main(["kb", "validate", str(path), "--db", str(tmp_path / "none.db")]) == 0
    out = capsys.readouterr().out
    assert "26 warning(s):" in out  # the source's title and 25 facts without French
    assert out.count("  warning: ") == 26 and "facts[24] (fact-24): no French text" in out


def test_one_wrong_published_time_is_one_error(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(_pack(25, published="2019-10-02 at eight"))
    with pytest.raises(LoadError) as error:
        load_knowledge(path, BOARDS)
    assert error.value.problems == [
        "sources[0] (a.txt): 'published': expected an ISO 8601 time like 2019-10-02T20:00:00-04:00, "
        "got '2019-10-02 at eight'"]


@pytest.mark.parametrize(("published", "offset"), [
    ("2020-02-10T09:00:00", "-05:00"),  # winter: Eastern Standard Time
    ("2019-10-02T20:00:00", "-04:00"),  # summer time
])
def test_a_time_without_offset_is_told_the_offset_of_its_date(tmp_path, published, offset):
    path = tmp_path / "pack.yaml"
    path.write_text(_pack(1, published=published))
    with pytest.raises(LoadError) as error:
        load_knowledge(path, BOARDS)
    assert f"has no UTC offset (add {offset}, Toronto's on that day)" in str(error.value)


@pytest.mark.parametrize(("names", "boards"), [
    (["peel"], "pdsb"), (["tdbs"], "tdsb"), (["york", "catholic"], "ycdsb"), (["tdsb", "tcdsb"], "tcdsb, tdsb"),
    (["peel,", "york", "catholic"], "pdsb, ycdsb"),
])
def test_grant_and_revoke_take_the_board_names_parents_use(settings, capsys, names, boards):
    db = settings.database.path
    assert main(["grant", "--db", db, "telegram:5", *names]) == 0
    assert f"board staff for {boards}." in capsys.readouterr().out
    assert main(["revoke", "--db", db, "telegram:5", *names]) == 0
    capsys.readouterr()
    assert main(["roles", "--db", db]) == 0
    assert capsys.readouterr().out.startswith("Nobody has a staff role yet")


def test_grant_for_a_board_nobody_knows_is_one_line(settings, capsys):
    assert main(["grant", "--db", settings.database.path, "telegram:5", "zzz"]) == 2
    assert capsys.readouterr().err == "schoolbot: I don't know a board called 'zzz'; use its id, e.g. tdsb or pdsb.\n"
