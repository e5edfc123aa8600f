import pytest

from bot.language import detect, from_locale


@pytest.mark.parametrize("text, expected", [
    ("est-ce que l'école est ouverte lundi à Ottawa?", "fr"),
    ("ecole ouverte lundi?", "fr"),  # no accents
    ("y'a tu de l'école demain", "fr"),
    ("les ae sont tu en greve", "fr"),
    ("parlez-vous français?", "fr"),
    ("is l'école open lundi?", "fr"),  # franglais: the majority of its words
    ("school is open tomorrow ou pas? tdsb", "fr"),  # two French grammar words: a francophone's franglais
    ("why are they striking? je comprends pas", "fr"),
    ("before and after school program à Viamonde c'est maintenu?", "fr"),
    ("is school open monday in peel, merci", "en"),  # a borrowed French word is no French grammar
    ("is the school in l'Est open monday", "en"),  # "Est" of a board's name is not "c'est"
    ("is school open monday in peel", "en"),
    ("are EAs on strike too?", "en"),
    ("is the garderie open", "en"),
    ("tdsb", None),  # no vote: keep the user's language
    ("ok", None),
    ("merci", None),  # one word does not switch a conversation...
])
def test_detect(text, expected):
    assert detect(text) == expected


def test_one_word_is_enough_for_a_new_user():
    assert detect("merci", min_votes=1) == "fr" and detect("thanks", min_votes=1) == "en"


@pytest.mark.parametrize("code, expected", [("fr", "fr"), ("fr-CA", "fr"), ("fr_FR", "fr"), ("en-US", "en"),
                                            ("de", None), ("", None), (None, None)])
def test_platform_locale_is_a_first_guess(code, expected):
    assert from_locale(code) == expected


def test_an_english_board_name_does_not_make_a_french_message_english():
    assert detect("Ottawa Catholic School Board ouvert lundi?") == "fr"
    assert detect("Peel District School Board fermé demain?") == "fr"
    assert detect("is my school board open monday") == "en"  # the English words around it still count


def test_english_abbreviations_that_are_french_words_do_not_vote():
    """'ont.' is Ontario and 'mon' Monday in English messages; neither makes a message French."""
    assert detect("london ont. thames valley closed mon?") != "fr"
    assert detect("annuler mon abonnement", 1) == "fr"  # French by its other words
