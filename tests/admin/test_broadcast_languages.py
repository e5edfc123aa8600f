"""Broadcasts in each subscriber's language: "English fr: French" in one /broadcast, the preview of both texts,
each subscriber's language from what the bot knows of them, and the outbox keeping it across a restart."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.app import build_bot, open_knowledge
from bot.broadcast import BroadcastError, Outbox
from bot.broadcast.compose import split_languages
from bot.broadcast.worker import DeliveryWorker
from bot.messages import ChatKind, SendOutcome, SendStatus
from tests.conftest import THURSDAY, message

ADMIN, TDSB_STAFF = "1", "777"
TWO = "/broadcast tdsb Schools are open Monday. fr: Les écoles sont ouvertes lundi."


class Recorder:
    platform = "test"

    def __init__(self):
        self.sent: dict[str, list[str]] = {}

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        self.sent.setdefault(chat_id, []).append(text)
        return SendOutcome(SendStatus.SENT)


def drain(store, settings) -> Recorder:
    sender = Recorder()
    asyncio.run(DeliveryWorker(store, sender, settings, poll_interval=0.01).run(once=True))
    return sender


@pytest.fixture
def parents(bot, said):
    """Three TDSB subscribers: en-1 (English), fr-1 (chose French), fr-2 (French Telegram app, never chose)."""
    said("/subscribe tdsb", user="en-1")
    said("/langue fr", user="fr-1")
    said("/subscribe tdsb", user="fr-1")
    bot.handle(replace(message("/subscribe tdsb", user="fr-2"), language="fr-CA"))
    return ["en-1", "fr-1", "fr-2"]


# ------------------------------------------------------------------ the author's text
@pytest.mark.parametrize("body, parts", [
    ("Schools are open Monday. fr: Les écoles sont ouvertes lundi.",
     {"en": "Schools are open Monday.", "fr": "Les écoles sont ouvertes lundi."}),
    ("en: Open Monday. fr: Ouvert lundi.", {"en": "Open Monday.", "fr": "Ouvert lundi."}),
    ("Open Monday. | fr: Ouvert lundi.", {"en": "Open Monday.", "fr": "Ouvert lundi."}),  # as /enddispute writes it
    ("fr: Ouvert lundi.\nen: Open Monday.", {"en": "Open Monday.", "fr": "Ouvert lundi."}),
    ("Open Monday.\nFR : Ouvert lundi.", {"en": "Open Monday.", "fr": "Ouvert lundi."}),  # a French keyboard's colon
    ("Open Monday.\nFr:\u00a0Ouvert lundi.", {"en": "Open Monday.", "fr": "Ouvert lundi."}),
    ("Les écoles sont ouvertes lundi. en: Schools are open Monday.",
     {"fr": "Les écoles sont ouvertes lundi.", "en": "Schools are open Monday."}),
    ("Schools are open Monday, see https://fr.example.org/a:b", {"en": "Schools are open Monday, see https://fr.example.org/a:b"}),
    ("Les écoles du conseil sont ouvertes lundi et mardi.", {"fr": "Les écoles du conseil sont ouvertes lundi et mardi."}),
    ("Schools are open on Monday and Tuesday.", {"en": "Schools are open on Monday and Tuesday."}),
])
def test_the_text_of_each_language(body, parts):
    assert split_languages(body) == parts


@pytest.mark.parametrize("body, key", [
    ("Open. fr: Ouvert. fr: Encore.", "broadcast_marker_twice"),
    ("Open Monday. fr:", "broadcast_part_empty"),
    ("Hello en: Open. fr: Ouvert.", "broadcast_text_before_markers"),
])
def test_a_badly_marked_text_is_refused_and_says_why(body, key):
    with pytest.raises(BroadcastError) as caught:
        split_languages(body)
    assert caught.value.key == key


# ------------------------------------------------------------------ through the bot
def test_each_subscriber_gets_the_text_of_their_language(bot, store, settings, said, parents):
    preview = said(TWO, user=TDSB_STAFF)
    assert "----- in English (1) -----" in preview and "----- in French (2) -----" in preview
    assert "Official update for Toronto District School Board (TDSB), Oct 3, 2019, 9:00 a.m.:\n\nSchools are open Monday." in preview
    assert "Mise à jour officielle – Toronto District School Board (TDSB), 3 oct. 2019, 9 h :\n\nLes écoles sont ouvertes lundi." in preview
    assert "Note:" not in preview
    assert said("/confirm", user=TDSB_STAFF).startswith("Broadcast #1 queued for 3 recipients")
    sent = drain(store, settings).sent
    assert sent["en-1"] == ["Official update for Toronto District School Board (TDSB), Oct 3, 2019, 9:00 a.m.:\n\n"
                            "Schools are open Monday.\n\n(You get this because you subscribed. Send /unsubscribe to stop.)"]
    for chat in ("fr-1", "fr-2"):
        assert sent[chat] == ["Mise à jour officielle – Toronto District School Board (TDSB), 3 oct. 2019, 9 h :\n\n"
                              "Les écoles sont ouvertes lundi.\n\n(Vous recevez ce message parce que vous êtes abonné. "
                              "Envoyez /unsubscribe pour ne plus en recevoir.)"]
    assert sent[TDSB_STAFF] == ["Your broadcast #1 to tdsb is done: 3 delivered, 0 failed, 0 blocked (of 3 recipients)."]


def test_one_language_reaches_everyone_and_the_preview_warns(bot, store, settings, said, parents):
    preview = said("/broadcast tdsb Schools are open Monday.", user=TDSB_STAFF)
    assert "Note: the text is in English only, so French-speaking subscribers (2) get it in English" in preview
    assert "fr: Les écoles sont ouvertes lundi." in preview  # how to write to them in French
    assert "----- in French (2) -----" in preview  # what they will see: their header, the English text
    said("/confirm", user=TDSB_STAFF)
    sent = drain(store, settings).sent
    assert sent["en-1"][0].endswith("Schools are open Monday.\n\n(You get this because you subscribed. Send /unsubscribe to stop.)")
    assert sent["fr-1"][0].startswith("Mise à jour officielle")
    assert "Schools are open Monday.\n\n(Cette mise à jour n'a été rédigée qu'en anglais.)" in sent["fr-1"][0]


def test_a_text_only_in_french_reaches_english_subscribers_with_a_note(bot, store, settings, said, parents):
    preview = said("/broadcast tdsb fr: Les écoles sont ouvertes lundi.", user=TDSB_STAFF)
    assert "English-speaking subscribers (1) get it in French" in preview
    said("/confirm", user=TDSB_STAFF)
    sent = drain(store, settings).sent
    assert sent["en-1"][0].startswith("Official update for Toronto District School Board (TDSB)")
    assert "Les écoles sont ouvertes lundi.\n\n(This update was written in French only.)" in sent["en-1"][0]


def test_english_only_subscribers_see_the_preview_as_before(bot, store, settings, said):
    said("/subscribe tdsb", user="en-1")
    preview = said("/broadcast tdsb Schools are open Monday.", user=TDSB_STAFF)
    assert preview.startswith("Preview of a broadcast to 1 recipient (test 1). They will see exactly this:\n-----\n"
                              "Official update for")
    assert "French" not in preview and "Note:" not in preview


def test_a_french_staff_member_gets_a_french_preview_confirmation_and_report(bot, store, settings, said, parents):
    said("/langue fr", user=TDSB_STAFF)
    preview = said(TWO, user=TDSB_STAFF)
    assert preview.startswith("Aperçu d'une diffusion à 3 destinataires (test 3). Ils verront exactement ceci :")
    assert "----- en anglais (1) -----" in preview and "----- en français (2) -----" in preview
    assert preview.endswith("Envoyez /confirm pour l'appliquer, ou /cancel.")
    queued = said("/confirm", user=TDSB_STAFF)
    assert queued.startswith("Diffusion nº 1 en file pour 3 destinataires; l'envoi a commencé.")
    sent = drain(store, settings).sent
    assert sent[TDSB_STAFF] == ["Votre diffusion nº 1 (tdsb) est terminée : 3 livrés, 0 en échec, 0 bloqués "
                                "(sur 3 destinataires)."]
    assert said("/deliveries", user=TDSB_STAFF).startswith("Diffusions récentes :\n[##########] nº 1 tdsb : terminée")
    english_only = said("/broadcast tdsb Schools are open Monday.", user=TDSB_STAFF)
    assert "Attention : le texte n'est qu'en anglais; les abonnés francophones (2) le recevront donc en anglais" in english_only
    assert said("/broadcast tdsb Open. fr:", user=TDSB_STAFF).startswith("Le texte après fr: est vide.")


def test_a_group_gets_the_language_it_subscribed_in(bot, store, settings, said):
    said("/langue fr", user="fr-admin")
    said("/subscribe tdsb", user="fr-admin", chat="group-1", kind=ChatKind.GROUP, group_admin=True)
    said("/subscribe tdsb", user="en-admin", chat="group-2", kind=ChatKind.GROUP, group_admin=True)
    said(TWO, user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    sent = drain(store, settings).sent
    assert "Les écoles sont ouvertes lundi." in sent["group-1"][0]
    assert "Schools are open Monday." in sent["group-2"][0]


def test_a_user_who_changes_language_later_gets_the_new_one(bot, store, settings, said):
    said("/subscribe tdsb", user="p")
    said("/langue fr", user="p")
    said(TWO, user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    assert "Les écoles" in drain(store, settings).sent["p"][0]


def test_each_recipients_text_survives_a_restart_of_the_process(settings, store, shared_matcher, said, parents):
    said(TWO, user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    store.close()  # nothing sent yet: the outbox alone says who gets which text
    again = open_knowledge(settings)
    try:
        assert dict(again.conn.execute("SELECT chat_id, language FROM deliveries WHERE kind = 'message'")) == {
            "en-1": "en", "fr-1": "fr", "fr-2": "fr"}
        build_bot(settings, store=again, clock=lambda: THURSDAY, matcher=shared_matcher)
        sent = drain(again, settings).sent
        assert "Schools are open Monday." in sent["en-1"][0]
        assert "Les écoles sont ouvertes lundi." in sent["fr-2"][0]
    finally:
        again.close()


def test_the_audience_counts_each_chat_once_per_language(store):
    store.subscribe("test", "a", "tdsb", "private", "a", "fr")
    store.subscribe("test", "a", "all", "private", "a", "fr")
    store.subscribe("test", "b", "tdsb", "private", "b")
    assert Outbox(store).audience("tdsb") == ({"test": 2}, {"fr": 1, "en": 1})
