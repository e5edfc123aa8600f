"""BoardFinder.suggest: the ranked board list behind autocomplete menus (Discord's slash-command options)."""

from __future__ import annotations


def ids(finder, text: str, limit: int = 25) -> list[str]:
    return [board.id for board in finder.suggest(text, limit)]


def test_an_id_or_name_prefix_comes_first(bot):
    finder = bot.boards
    assert ids(finder, "tdsb")[0] == "tdsb"
    assert ids(finder, "pee")[0] == "pdsb"
    assert "dpcdsb" in ids(finder, "pee")  # Dufferin-Peel: a word of its name starts with it


def test_the_board_the_core_would_pick_comes_first(bot):
    finder = bot.boards
    # A city means its English public board, as the core reads it; the others serving it follow.
    assert ids(finder, "toronto")[:2] == ["tdsb", "tcdsb"]
    assert ids(finder, "mississauga")[0] == finder.lookup("mississauga").id == "pdsb"
    assert ids(finder, "tdbs")[0] == "tdsb"  # a misspelling: its likely board


def test_empty_text_lists_boards_up_to_the_limit_and_nonsense_none(bot):
    finder = bot.boards
    assert len(ids(finder, "")) == 25
    assert len(ids(finder, "", limit=3)) == 3
    assert ids(finder, "", limit=0) == []
    assert ids(finder, "zzzz") == []
    everything = ids(finder, "", limit=1000)
    assert sorted(everything) == sorted(finder.boards) and len(set(everything)) == len(everything)


def test_odd_text_never_raises(bot):
    for text in ("", " ", "\u0000", "é", "@everyone", "x" * 5000, "\ud800", "🙂🙂"):
        assert isinstance(bot.boards.suggest(text, 25), list)
