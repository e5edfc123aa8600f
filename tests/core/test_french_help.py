"""/help (and /aide) for a French-speaking parent: the pack's French examples, French argument words, never English;
and the fixed texts around answers in French typography."""

from __future__ import annotations

from tests.conftest import message


def _said(bot, text: str, user: str = "fr1") -> str:
    return "\n".join(r.text for r in bot.handle(message(text, user=user)))


def test_french_help_gives_the_packs_french_examples(bot):
    _said(bot, "/langue fr")
    text = _said(bot, "/aide")
    assert text.startswith("Je réponds aux questions des parents sur l'école, à partir des nouvelles sur « Moyens de pression")
    assert "Demandez-moi, par exemple :\n- « l'école est-elle ouverte lundi? »\n- « quels services sont arrêtés? »" in text
    assert "- « qui est en grève? »" in text
    assert "is school open" not in text and '"' not in text  # none of the pack's English examples
    assert "/status [conseil] [date] - L'école est-elle ouverte?" in text
    assert "/board NOM - " in text and "/subscribe [conseil|tous] - " in text
    assert _said(bot, "/help") == text


def test_the_french_examples_are_answered_in_french(bot):
    _said(bot, "/langue fr", user="fr2")
    assert _said(bot, "qui est en grève?", user="fr2").startswith("Environ 55 000 employés de soutien du SCFP")
    assert _said(bot, "y a-t-il une entente?", user="fr2").startswith("Non, pas au 2 octobre")


def test_english_help_keeps_the_english_examples(bot):
    text = _said(bot, "/help", user="en1")
    assert '- "is school open monday?"' in text and "/status [board] [date] - Is school open?" in text
    assert "«" not in text


def test_an_out_of_scope_answer_names_the_board_site_in_french_typography(bot):
    _said(bot, "/langue fr", user="fr3")
    _said(bot, "/conseil cepeo", user="fr3")
    text = _said(bot, "les bus roulent?", user="fr3")
    assert text.endswith("(Conseil des écoles publiques de l'Est de l'Ontario : https://cepeo.on.ca).")
