"""Dates that cannot exist in a knowledge file are named like every other config error: file, entry, problem."""

from __future__ import annotations

import pytest

from knowledge.loading import LoadError, load_boards, load_knowledge

PACK = """
sources:
  - file: letter.txt
    title: A letter
    published: {published}
statuses:
  - id: tdsb-monday
    board: tdsb
    from: {start}
    status: open
    summary: Open
    source: letter.txt
timeline:
  - id: strike-day
    kind: other
    date: {day}
    text: Something
    source: letter.txt
"""


@pytest.mark.parametrize(("field", "values", "entry", "problem"), [
    ("start", {"start": "2019-02-30"}, "statuses[0] (tdsb-monday): 'from'", "'2019-02-30' is not a real date (day is out of range for month)"),
    ("day", {"day": "2019-13-01"}, "timeline[0] (strike-day): 'date'", "'2019-13-01' is not a real date (month must be in 1..12)"),
    ("published", {"published": "2019-10-02T25:00:00-04:00"}, "sources[0] (letter.txt): 'published'",
     "got '2019-10-02T25:00:00-04:00' (hour must be in 0..23)"),
])
def test_an_impossible_date_names_file_entry_and_problem(tmp_path, field, values, entry, problem):
    given = {"start": "2019-10-07", "day": "2019-10-07", "published": "2019-10-02T20:00:00-04:00", **values}
    path = tmp_path / "pack.yaml"
    path.write_text(PACK.format(**given))
    with pytest.raises(LoadError) as error:
        load_knowledge(path, {"tdsb"})
    line = next(p for p in error.value.problems if p.startswith(entry))
    assert problem in line
    assert str(path) in str(error.value)


def test_an_impossible_date_in_the_boards_file_is_a_load_error_too(tmp_path):
    path = tmp_path / "boards.yaml"
    path.write_text("boards:\n  - id: tdsb\n    name: 2019-02-30\n")
    with pytest.raises(LoadError):
        load_boards(path)
