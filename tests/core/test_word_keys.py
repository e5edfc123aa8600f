"""Which texts a fuzzy search compares with a message: those sharing one of its less common words."""

from __future__ import annotations

from bot.indexes import WordKeyIndex

TEXTS = [
    "is school open monday",
    "is school closed",
    "are schools closing",
    "who cuts the grass",
    "is the bus running",
    "is there a deal",
]


def test_texts_sharing_a_less_common_word_are_compared_in_their_order():
    keys = WordKeyIndex(TEXTS, common_share=0.4)
    places, texts = keys.candidates(["when", "will", "schools", "close"], TEXTS)
    # "close", "closed", "closing" share their first four letters; "school(s)" is in most texts: it selects none
    assert places == [1, 2] and texts == ["is school closed", "are schools closing"]
    places, texts = keys.candidates(["grass", "and", "bus"], TEXTS)
    assert places == [3, 4] and texts == [TEXTS[3], TEXTS[4]]


def test_a_message_of_common_or_unknown_words_is_compared_with_every_text():
    keys = WordKeyIndex(TEXTS, common_share=0.4)
    for words in (["is", "school"], ["zorblax"], ["a"], []):
        places, texts = keys.candidates(words, TEXTS)
        assert list(places) == list(range(len(TEXTS))) and texts == TEXTS


def test_one_letter_words_select_nothing():
    keys = WordKeyIndex(["y a", "n", "a deal"], common_share=1.0)
    assert list(keys.candidates(["a", "y"], ["y a", "n", "a deal"])[0]) == [0, 1, 2]
    assert keys.candidates(["deal"], ["y a", "n", "a deal"])[0] == [2]
