"""Replies in the user's language: the language step, /language, French wording, dates and knowledge texts."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from types import SimpleNamespace

import pytest

from bot.answers import status_words, when_published
from bot.dates import describe_day
from bot.intent_data import INTENTS
from bot.language import detect
from bot.commands import help_text
from bot.replies import Voice, wording
from tests.conftest import TORONTO, message

THU = date(2019, 10, 3)


def french(bot, text: str, **kwargs) -> str:
    return "\n".join(r.text for r in bot.handle(message(text, **kwargs)))


# ------------------------------------------------------------------ words
@pytest.mark.parametrize("day, expected", [
    (date(2019, 10, 7), "lundi 7 octobre"),
    (date(2019, 10, 4), "demain, vendredi 4 octobre"),
    (date(2019, 10, 3), "aujourd'hui, jeudi 3 octobre"),
    (date(2019, 10, 2), "hier, mercredi 2 octobre"),
    (date(2020, 1, 1), "mercredi 1er janvier 2020"),
])
def test_days_in_french_words(day, expected):
    assert describe_day(day, THU, "fr") == expected
    assert describe_day(day, THU, "en") == describe_day(day, THU)  # English stays as it was


def test_as_of_times_in_both_languages():
    evening = datetime(2019, 10, 2, 20, 0, tzinfo=TORONTO)
    assert when_published(evening) == "Oct 2, 2019, 8:00 p.m."
    assert when_published(evening, "fr") == "2 oct. 2019, 20 h"
    assert when_published(datetime(2019, 9, 5, 12, 30, tzinfo=TORONTO), "fr") == "5 sept. 2019, 12 h 30"
    from datetime import UTC
    assert when_published(evening.astimezone(UTC)) == "Oct 3, 2019, 12:00 a.m."  # the same instant, its own offset


def test_statuses_in_french_from_the_pack_words():
    assert status_words("closed", "fr") == "fermé"
    assert status_words("open", "fr") == "ouvert"
    assert status_words("closures_possible") == "not decided yet: closures are possible"


def test_every_conversation_text_has_french():
    catalog = wording()
    assert catalog.warnings == ()
    assert catalog.say("welcome", "fr") == "De rien!"
    assert catalog.say("only_in_english", "fr") == "(Cette information n'est disponible qu'en anglais.)"


def test_no_wording_key_is_written_twice():
    """YAML keeps the last of two equal keys without a word: two sections must not reuse a key."""
    import re
    from collections import Counter

    from bot.replies import WORDING_FILE

    keys = re.findall(r"^([A-Za-z_][\w-]*):", WORDING_FILE.read_text(encoding="utf-8"), re.MULTILINE)
    assert [k for k, n in Counter(keys).items() if n > 1] == []


def test_french_help_lists_the_commands_in_french():
    text = help_text("fr")
    assert "Commandes :" in text and "Arrêter les mises à jour" in text and "/language [en|fr]" in text
    assert detect(text) == "fr"


def test_a_knowledge_text_without_french_is_given_in_english_and_said_once():
    voice = Voice("fr")
    with_french = SimpleNamespace(text="Schools are open.", fr={"text": "Les écoles sont ouvertes."})
    without = SimpleNamespace(text="Talks resume Friday.", fr=None)
    assert voice.text(with_french, "text") == "Les écoles sont ouvertes." and not voice.untranslated
    assert voice.text(without, "text") == "Talks resume Friday." and voice.untranslated
    voice.text(without, "text")
    finished = voice.finish("a\nb")
    assert finished.count("qu'en anglais") == 1 and finished.startswith("a\nb\n")
    english = Voice("en")
    assert english.text(with_french, "text") == "Schools are open." and english.finish("x") == "x"


# ------------------------------------------------------------------ through the one entry point
def test_a_french_question_gets_a_french_answer_with_its_source(bot):
    reply = french(bot, "est-ce que l'école est ouverte lundi à peel?")
    assert "lundi 7 octobre" in reply and "pas encore décidé" in reply
    assert "Source : 2019-10-02-full-strike-notice-talks-friday.txt, au 2 oct. 2019, 20 h." in reply
    assert reply.count("(Cette information n'est disponible qu'en anglais.)") <= 1
    assert "Monday" not in reply and "Source:" not in reply


def test_a_french_board_answer_leads_with_its_short_name_and_its_website(bot):
    """The answer, not the board's full name, fills a phone's preview; the full name is left out (issue 20)."""
    reply = french(bot, "est-ce que les écoles du CEPEO sont ouvertes lundi?")
    first = reply.split("\n")[0]
    assert first == "CEPEO, lundi 7 octobre : non confirmé; rien du conseil dans mes sources, consultez https://cepeo.on.ca"
    assert "Conseil des écoles publiques de l'Est de l'Ontario" not in reply
    assert "cepeo.on.ca" in reply[:160]


def test_old_news_in_french_is_said_in_few_words(bot):
    reply = french(bot, "l'école est-elle ouverte demain au TDSB?", at=datetime(2019, 10, 7, 7, tzinfo=TORONTO))
    assert reply.startswith("Nouvelles du 2 octobre 2019 (il y a 5 jours) : TDSB, demain, mardi 8 octobre")


def test_a_card_answer_in_french_from_the_card_french_texts(bot):
    reply = french(bot, "Est-ce que les enseignants font la grève?")
    assert detect(reply) == "fr" and reply.startswith("Non : ce sont les employés de soutien du SCFP")
    assert "qu'en anglais" not in reply  # the card has its French texts


def test_an_out_of_scope_topic_is_named_in_french(bot):
    reply = french(bot, "la météo demain?")
    assert reply.startswith("Je n'ai aucune information à ce sujet (la météo et les tempêtes de neige).")
    assert "Environnement Canada" in reply and "qu'en anglais" not in reply


def test_an_out_of_scope_topic_needs_french_texts_of_the_right_shape(tmp_path):
    from bot.intent_data import load_intents
    from knowledge.loading import LoadError
    intents = tmp_path / "intents.yaml"
    body = "intents:\n" + "".join(f"  {name}:\n    examples: [x]\n" for name in INTENTS)
    intents.write_text(body + "out_of_scope:\n  - topic: weather\n    keywords: [weather]\n    where: EC\n"
                       "    fr: {sujet: meteo}\n", encoding="utf-8")
    with pytest.raises(LoadError, match=r"out_of_scope\[0\]: 'fr': unknown French text\(s\) sujet; known: topic, where"):
        load_intents(intents)


def test_what_the_reports_do_not_say_is_said_as_such_in_french(bot):
    reply = french(bot, "l'autobus scolaire passe tu lundi?")
    assert reply.startswith("Je n'ai pas d'information sur les autobus scolaires")


def test_the_language_is_remembered_and_one_french_word_does_not_switch_an_english_user(bot):
    assert "lundi 7 octobre" in french(bot, "l'école est-elle ouverte lundi à peel?")
    assert french(bot, "merci") == "De rien! Envoyez /subscribe pour recevoir les mises à jour officielles de votre conseil scolaire."
    assert "Commandes :" in french(bot, "/help")  # no words to tell: the remembered language
    assert "Monday, October 7" in french(bot, "is school open monday in peel?")  # a clear English message
    assert french(bot, "merci").startswith("You're welcome!")  # one French word: still English


def test_language_command_shows_and_sets(bot):
    assert french(bot, "/language").startswith("I answer you in English")
    assert french(bot, "/langue fr").startswith("D'accord, je vous répondrai en français")
    assert french(bot, "/language").startswith("Je vous réponds en français")
    assert "Commandes :" in french(bot, "/help")
    assert "Je ne connais pas la langue" in french(bot, "/langue klingon")
    assert french(bot, "/language english").startswith("OK, I'll answer you in English")
    assert "Commands:" in french(bot, "/help")


@pytest.mark.parametrize("text, language", [
    ("parlez-vous français?", "fr"), ("Parlez vous francais", "fr"), ("en français svp", "fr"),
    ("can you answer in French?", "fr"), ("in English please", "en"), ("do you speak english?", "en"),
])
def test_asking_for_a_language_in_words(bot, text, language):
    if language == "en":
        french(bot, "/langue fr")
    reply = french(bot, text)
    assert reply.startswith("D'accord" if language == "fr" else "OK, I'll answer you in English")
    assert ("Commandes :" if language == "fr" else "Commands:") in french(bot, "/help")


def test_the_platform_language_is_a_first_guess_only(bot):
    hinted = replace(message("/help"), language="fr-CA")
    assert "Commandes :" in bot.handle(hinted)[0].text
    english = replace(message("is school open monday in peel?", user="u2"), language="fr")
    assert "Monday, October 7" in bot.handle(english)[0].text


def test_franglais_follows_the_majority(bot):
    assert "lundi 7 octobre" in french(bot, "is l'école open lundi à peel?")
    assert "Monday, October 7" in french(bot, "is school open on monday in peel, merci", user="u3")


def test_french_prompts_social_turns_and_subscriptions(bot):
    picture = french(bot, "est-ce que l'école est ouverte lundi?")
    assert "Quel est le conseil scolaire de votre enfant?" in picture and "lundi 7 octobre" in picture
    assert "Je retiendrai" in french(bot, "peel")
    assert french(bot, "bonjour").startswith("Bonjour!")
    assert "Vous recevrez désormais les mises à jour officielles" in french(bot, "/subscribe peel")
    assert "C'est fait : plus de mises à jour" in french(bot, "/unsubscribe")
    assert french(bot, "/nosuch").startswith("Je ne connais pas la commande /nosuch")


# ------------------------------------------------------------------ staff tools
@pytest.fixture
def staff_bot(tmp_path, template_db, shared_matcher):
    import shutil

    from bot.app import build_bot, open_knowledge
    from bot.settings import Settings
    from tests.conftest import THURSDAY

    path = tmp_path / "schoolbot.db"
    shutil.copyfile(template_db, path)
    settings = Settings().replace("database", path=str(path)).replace("roles", board_staff=("test:777=tdsb",))
    store = open_knowledge(settings)
    yield build_bot(settings, store=store, clock=lambda: THURSDAY, matcher=shared_matcher)
    store.close()


def test_staff_messages_in_french(staff_bot):
    assert french(staff_bot, "/setstatus tdsb closed: Écoles fermées", user="p9", platform="test") == french(
        staff_bot, "/setstatus tdsb closed: Écoles fermées", user="p8")  # a parent: the same refusal
    french(staff_bot, "/langue fr", user="p9")
    assert french(staff_bot, "/setstatus tdsb closed", user="p9").startswith("Désolé, cette commande est réservée")
    french(staff_bot, "/langue fr", user="777")
    preview = french(staff_bot, "/setstatus tdsb closed from monday: Les écoles sont fermées lundi.", user="777")
    assert preview.startswith("Aperçu : Toronto District School Board (TDSB), du lundi 7 octobre jusqu'à nouvel ordre : fermé.")
    assert "Les parents qui poseront la question pour lundi 7 octobre" in preview and "Envoyez /confirm" in preview
    done = french(staff_bot, "/confirm", user="777")
    assert done.startswith("C'est fait : Toronto District School Board (TDSB) est maintenant « fermé » à partir du lun. 7 oct.")
    assert "Utilisation : /setstatus CONSEIL STATUT" in french(staff_bot, "/setstatus", user="777")
    assert french(staff_bot, "/cancel", user="777") == "Il n'y a rien à annuler."


def test_bus_drivers_are_workers_in_french_too(bot):
    """'chauffeurs d'autobus' are workers (the bus-drivers card), as 'bus drivers' are in English."""
    reply = french(bot, "les chauffeurs d'autobus sont-ils en grève?")
    assert reply.startswith("Pas selon les reportages : les chauffeurs d'autobus ne font pas partie")
    stop = french(bot, "l'arrêt d'autobus est où?")  # the pack's card on buses, or the place to look: no info
    assert stop.startswith("Je n'ai pas d'information sur les autobus scolaires") and "transport scolaire" in stop


def test_which_services_in_french_lists_them_all(bot):
    """'retirés', 'exactement', 'quels' ask for the list: they name no service."""
    reply = french(bot, "Quels services sont retirés exactement?")
    assert reply.startswith("Pendant la période de grève du zèle, le personnel a cessé :")
    assert reply.count("\n- ") >= 3
