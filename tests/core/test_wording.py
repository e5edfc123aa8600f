import pytest

from bot.wording import load_wording
from knowledge.loading import LoadError


def test_texts_in_both_languages_with_fields(tmp_path):
    path = tmp_path / "wording.yaml"
    path.write_text(
        "ask_board:\n  en: Which board is your child's? I'll tell you about {day}.\n"
        "  fr: Quel est le conseil scolaire de votre enfant? Je vous dirai ce qu'il a annoncé pour {day}.\n"
        "thanks:\n  en: You're welcome!\n"
    )
    wording = load_wording(path)
    assert wording.say("ask_board", "fr", day="lundi 7 octobre").endswith("annoncé pour lundi 7 octobre.")
    assert wording.say("thanks", "fr") == "You're welcome!"  # no French: English, and a warning says so
    assert wording.warnings == ("thanks: no French text; English is used",)


def test_a_french_text_with_other_fields_is_an_error(tmp_path):
    path = tmp_path / "wording.yaml"
    path.write_text("ask_board:\n  en: About {day}.\n  fr: À propos de {jour}.\nbad:\n  fr: seulement\n")
    with pytest.raises(LoadError) as error:
        load_wording(path)
    assert "ask_board: 'fr': its {fields} ['jour'] differ from English ['day']" in str(error.value)
    assert "bad: 'en' is missing" in str(error.value)
