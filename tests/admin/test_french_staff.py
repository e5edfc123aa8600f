"""A French-speaking staff member gets every staff reply in French: previews, confirmations, errors, lists."""

from __future__ import annotations

import pytest

ADMIN, TDSB_STAFF = "1", "777"


@pytest.fixture
def fr(said):
    """fr(text, user) -> the reply to a staff member who chose French."""
    said("/langue fr", user=TDSB_STAFF)
    said("/langue fr", user=ADMIN)

    def _fr(text: str, user: str = TDSB_STAFF) -> str:
        return said(text, user=user)

    return _fr


def test_the_command_list_and_usages_are_in_french(fr):
    text = fr("/admin")
    assert text.startswith("Votre rôle : membre du personnel de tdsb. Commandes d'administration")
    assert "/teach CONSEIL | QUESTION | RÉPONSE" in text and "/addservice CONSEIL [PHASE] TRAVAILLEURS: SERVICE" in text
    assert "/unanswered [CONSEIL] [JOURS]" in text
    assert "Votre rôle : administrateur provincial (tous les conseils)." in fr("/admin", user=ADMIN)


def test_a_status_change_is_previewed_and_confirmed_in_french(fr):
    preview = fr("/setstatus tdsb closed from lundi: Écoles fermées")  # French day words work after 'from'
    assert preview.startswith("Aperçu : Toronto District School Board (TDSB), du lundi 7 octobre jusqu'à nouvel ordre : fermé.")
    assert "Les parents qui poseront la question pour lundi 7 octobre recevront alors cette réponse :" in preview
    assert preview.endswith("Envoyez /confirm pour l'appliquer, ou /cancel.")
    done = fr("/confirm")
    assert done.startswith("C'est fait : Toronto District School Board (TDSB) est maintenant « fermé » à partir du lun. 7 oct.;")
    undo = fr("/undo")
    assert undo.startswith("Aperçu : annuler le changement nº 1 (statut) fait le 3 oct. 2019, 9 h :")
    assert fr("/confirm").startswith("Annulé : changement nº 1 : ")
    assert fr("/setstatus tdsb closed from le 8:").startswith("Ajoutez, après les dates, une courte note")
    assert fr("/setstatus tdsb open: Ouvert").startswith("Aperçu : Toronto District School Board (TDSB), du jeudi 3 octobre")


def test_services_events_and_answers_are_previewed_and_confirmed_in_french(fr):
    preview = fr("/addservice tdsb Concierges: aucun nettoyage des classes")
    assert preview.startswith("Aperçu : ajouter un service retiré (pendant la période de grève du zèle), source mise à jour du personnel (TDSB) :")
    assert "Les parents qui demandent ce qui a cessé le verront dans la liste." in preview
    assert fr("/confirm").startswith("C'est fait : « Concierges : aucun nettoyage des classes » a été ajouté")
    listed = fr("/endservice")
    assert listed.startswith("Services retirés en ce moment (mettez fin à l'un d'eux avec /endservice IDENTIFIANT) :")
    assert "- custodians-hallways: concierges : nettoyer les corridors" in listed  # the pack's French texts
    event = fr("/addevent tdsb talks vendredi: Reprise des négociations")
    assert event.startswith("Aperçu : ajouter à la chronologie (négociations), source mise à jour du personnel (TDSB) :\n- ven. 4 oct. : Reprise")
    assert fr("/confirm").startswith("C'est fait : l'événement du ven. 4 oct. a été ajouté. (Changement nº 2; /undo l'annule.)")
    card = fr("/teach tdsb | Le dîner est-il surveillé? | Oui, comme d'habitude. | source: lettre du TDSB")
    assert "Aperçu : une nouvelle réponse pour tdsb (sujet " in card and "_" not in card.split("\n")[0] and "Q : Le dîner est-il surveillé?" in card
    assert "R : Oui, comme d'habitude." in card
    assert fr("/confirm").startswith("C'est fait : je réponds maintenant à « Le dîner est-il surveillé? »")


def test_mistakes_are_explained_in_french(fr):
    assert fr("/setstatus pdsb closed: x").startswith("Désolé, vous ne pouvez agir que pour tdsb, pas pour pdsb.")
    assert fr("/setstatus all closed: x").startswith("Désolé, vous ne pouvez agir que pour tdsb, pas pour tous les conseils")
    assert fr("/setstatus nowhere closed: x").startswith("Je ne connais pas de conseil scolaire nommé 'nowhere'")
    assert fr("/setstatus tdsb banane: x").startswith("'banane' n'est pas un statut que je connais; je connais :")
    assert fr("/setstatus tdsb closed from bientôt: x").startswith("Je n'ai pas pu lire la date après 'from'")
    assert fr("/setstatus tdsb closed: " + "x" * 2000).startswith("La note compte 2,000 caractères")
    assert fr("/audit beaucoup").startswith("'beaucoup' n'est pas un nombre.\nUtilisation : /audit [N]")
    assert fr("/teach tdsb | seulement une question?").startswith("Il me faut la question et sa réponse")
    assert fr("/undo abc").startswith("'abc' n'est pas un numéro de changement.")
    assert fr("/confirm") == "Il n'y a rien à confirmer. Présentez d'abord un changement en aperçu (envoyez /admin pour les commandes)."


def test_roles_in_french(fr):
    assert fr("/grant telegram:55 tdsb", user=ADMIN).startswith(
        "Aperçu : telegram:55 deviendra membre du personnel de tdsb. (Actuellement : aucun rôle d'administration.)")
    assert fr("/confirm", user=ADMIN).startswith("C'est fait : le rôle de telegram:55 est maintenant : membre du personnel de tdsb.")
    assert fr("/revoke telegram:55", user=ADMIN).startswith("Aperçu : retirer tous les rôles attribués par le robot à telegram:55.")
    assert fr("/revoke telegram:99", user=ADMIN) == "telegram:99 n'a aucun rôle attribué par le robot; rien à retirer."
    assert fr("/grant oups tdsb", user=ADMIN).startswith("'oups' n'est pas un utilisateur : écrivez plateforme:identifiant")
    assert fr("/grant telegram:55 tdsb").startswith("Désolé, seul un administrateur provincial peut utiliser /grant.")


def test_audit_stats_and_unanswered_in_french(fr, said):
    assert fr("/audit") == "Le journal des actions est vide."
    said("what colour is the principal's car?", user="parent")
    stats = fr("/stats", user=ADMIN)
    assert stats.startswith("Questions par sujet et par jour (7 derniers jours) :")
    assert "Questions les plus fréquentes auxquelles je n'ai pas pu répondre :" in stats
    assert ": non compris 1" in stats.split("\n")[1]  # topics in words, not ids
    unanswered = fr("/unanswered", user=ADMIN)
    assert unanswered.startswith("Questions auxquelles je n'ai pas bien su répondre, 7 derniers jours")
    assert unanswered.endswith("Enseignez-m'en une : /teach CONSEIL | question | réponse | source: d'où vient la réponse")
    assert fr("/unanswered tdsb") == "Aucune question sans réponse pour tdsb dans les 7 derniers jours."
    fr("/setstatus tdsb open: Ouvert")
    fr("/confirm")
    audit = fr("/audit")
    assert audit.startswith("Dernières actions d'administration (heure de l'horloge du robot) :\nnº 1 2019-10-03 09:00 test:777 "
                            "statut indiqué tdsb : ")
    assert audit.endswith("-> ouvert : Ouvert")
    assert fr("/deliveries") == "Aucune diffusion pour l'instant."


def test_audit_lines_are_in_french_words(fr):
    """Actions, roles, status words and marks come from config/wording.yaml; an entry's French texts are used."""
    fr("/setstatus tdsb fermé du lundi: Écoles fermées")
    fr("/confirm")
    fr("/undo")
    fr("/confirm")
    fr("/grant telegram:55 province", user=ADMIN)
    fr("/confirm", user=ADMIN)
    fr("/grant telegram:56 tdsb,pdsb", user=ADMIN)
    fr("/confirm", user=ADMIN)
    lines = fr("/audit", user=ADMIN).split("\n")[1:]
    assert lines[0] == "nº 4 2019-10-03 09:00 test:1 rôle attribué telegram:56 : - -> personnel de pdsb, tdsb"
    assert lines[1] == "nº 3 2019-10-03 09:00 test:1 rôle attribué telegram:55 : - -> administrateur provincial"
    assert lines[2].startswith("nº 2 2019-10-03 09:00 test:777 annulé (statut) tdsb : fermé : Écoles fermées -> ")
    assert lines[2].endswith("fermé : Écoles fermées (annulé)")
    assert lines[3].startswith("nº 1 2019-10-03 09:00 test:777 statut indiqué tdsb : non confirmé : En cas de grève générale, le TDSB")
    assert "province admin" not in "\n".join(lines) and "unknown" not in "\n".join(lines)


def test_an_english_staff_member_is_still_answered_in_english(said):
    assert said("/setstatus pdsb closed: x", user=TDSB_STAFF).startswith("Sorry, you can only act for tdsb, not for pdsb.")
    assert said("/audit", user=TDSB_STAFF) == "The audit log is empty."


def test_setstatus_takes_french_status_and_date_words(fr):
    preview = fr("/setstatus tdsb fermé du lundi au mercredi: Écoles fermées")
    assert preview.startswith("Aperçu : Toronto District School Board (TDSB), du lundi 7 octobre au mercredi 9 octobre : fermé.")
    fr("/cancel")
    remote = fr("/setstatus tdsb à distance à partir de lundi jusqu'au 11 octobre: Cours en ligne à partir de lundi")
    assert "fermé aux élèves : l'apprentissage se fait à distance" in remote.split("\n")[0]
    assert "du lundi 7 octobre" in remote.split("\n")[0] and "11 octobre" in remote.split("\n")[0]
    assert "Cours en ligne à partir de lundi" in remote  # the note is kept as written
    fr("/cancel")
    assert fr("/setstatus tdsb ouvert: Ouvert").startswith("Aperçu : Toronto District School Board (TDSB), du jeudi 3 octobre")
    assert fr("/setstatus tdsb ferme des lundi: Fermé").startswith("Aperçu : Toronto District School Board (TDSB), du lundi 7")


def test_a_staff_update_is_cited_in_french_for_french_parents(fr, said):
    fr("/setstatus tdsb fermé du lundi: Écoles fermées lundi")
    fr("/confirm")
    french = said("est-ce que l'école est ouverte lundi au TDSB?", user="5001")
    assert "Source : mise à jour du personnel (TDSB), au 3 oct. 2019, 9 h." in french
    english = said("is school open monday at tdsb?", user="5002")
    assert "Source: TDSB staff update, as of Oct 3, 2019, 9:00 a.m." in english


@pytest.mark.parametrize("command", ["/langue", "/language"])
def test_the_language_command_alone_says_the_language_in_use_and_how_to_change(said, command):
    said("/langue fr", user="5003")
    assert said(command, user="5003") == (
        "Je vous réponds en français. Envoyez /langue en pour l'anglais (in English), /langue fr pour le français.")
    assert said(command, user="5004").startswith("I answer you in English. Send /language fr for French")


def test_french_usage_and_errors_name_the_french_words(fr):
    usage = fr("/setstatus tdsb")
    assert "/setstatus CONSEIL STATUT [du DATE] [au DATE]: NOTE" in usage
    assert "STATUT : ouvert, réduit" in usage and "fermé" in usage and "à distance" in usage and "inconnu" in usage
    assert "« au » (ou « jusqu'au »)" in usage and "p. ex. /setstatus cepeo réduit à partir de lundi:" in usage
    wrong = fr("/setstatus tdsb banane: x").split("\n")[0]
    assert wrong == ("'banane' n'est pas un statut que je connais; je connais : ouvert, réduit, fermetures-possibles, "
                     "fermé, fermé-en-personne, à-distance, inconnu.")
    assert fr("/setstatus tdsb fermé du 9 au 8: x").startswith("La date de fin (« au » ou « until » : mar. 8 oct.) tombe avant")
    assert fr("/setstatus tdsb fermé du 9 au 15: x").startswith(
        "Aperçu : Toronto District School Board (TDSB), du mercredi 9 octobre au mardi 15 octobre : fermé.")
    fr("/cancel")
    assert "/addevent tous négociations vendredi:" in fr("/addevent")
    event = fr("/addevent all grève-du-zèle lundi: Début de la grève du zèle", user=ADMIN)
    assert event.startswith("Aperçu : ajouter à la chronologie (début de la grève du zèle), source")
    fr("/cancel", user=ADMIN)
    assert "je connais : négociations, entente, annulation," in fr("/addevent tdsb banane lundi: x")
    assert fr("/endphase grève-du-zèle", user=ADMIN).startswith(
        "Aperçu : indiquer que les 13 services retirés pendant la phase grève du zèle sont revenus à la normale")
    fr("/cancel", user=ADMIN)
    assert fr("/addservice tdsb grève-du-zèle Concierges: rien").startswith(
        "Aperçu : ajouter un service retiré (pendant la période de grève du zèle)")


def test_an_english_staff_member_keeps_the_english_words(said):
    assert said("/setstatus tdsb banane: x", user=TDSB_STAFF).split("\n")[0] == (
        "'banane' is not a status I know; I know: open, reduced, closures-possible, closed, closed-for-in-person, "
        "remote-learning, unknown.")
    assert said("/addevent tdsb talks friday: Talks resume", user=TDSB_STAFF).startswith(
        "Preview: add to the timeline (talks), source TDSB staff update:")


def test_undo_says_what_the_change_was_in_the_readers_language(fr, said):
    fr("/setstatus tdsb fermé du lundi: Écoles fermées")
    fr("/confirm")
    assert fr("/undo").startswith("Aperçu : annuler le changement nº 1 (statut) fait le 3 oct. 2019, 9 h :\n"
                                  "tdsb fermé à partir du lun. 7 oct. : Écoles fermées")
    fr("/cancel")
    said("/language en", user=ADMIN)
    english = said("/undo 1", user=ADMIN)  # an English-speaking admin reads the same change in English
    assert english.startswith("Preview: undo change #1 (status) made Oct 3, 2019, 9:00 a.m.:\ntdsb closed from 2019-10-07: Écoles fermées")
    said("/cancel", user=ADMIN)
    said("/langue fr", user=ADMIN)
    fr("/grant telegram:55 province", user=ADMIN)
    fr("/confirm", user=ADMIN)
    assert "rôle attribué telegram:55 : maintenant administrateur provincial (tous les conseils)" in fr("/undo", user=ADMIN)
    fr("/cancel", user=ADMIN)
    taught = fr("/teach tdsb | Le dîner est-il surveillé? | Oui.")
    assert "source mise à jour du personnel (TDSB) :" in taught.split("\n")[0]
    fr("/confirm")
    assert fr("/undo").split("\n")[1] == "fiche : Le dîner est-il surveillé? Oui."


def test_a_broadcast_to_one_french_subscriber_is_previewed_and_queued_in_french(fr, said):
    said("/langue fr", user="5010")
    said("/abonner tdsb", user="5010")
    preview = fr("/broadcast tdsb Les écoles sont fermées lundi.", user=ADMIN)
    assert preview.startswith("Aperçu d'une diffusion à 1 destinataire (test 1). Il verra exactement ceci :")
    assert "Mise à jour officielle – Toronto District School Board (TDSB), 3 oct. 2019, 9 h :" in preview
    assert fr("/confirm", user=ADMIN).startswith("Diffusion nº 1 en file pour 1 destinataire; l'envoi a commencé.")
    assert fr("/audit", user=ADMIN).split("\n")[1].startswith("nº 1 2019-10-03 09:00 test:1 diffusion tdsb : - -> nº 1 (destinataires : 1) : ")


def test_tous_names_every_board_and_teach_takes_french_labels(fr):
    assert fr("/setstatus tous fermé: Écoles fermées", user=ADMIN).startswith(
        "Aperçu : tous les conseils scolaires, du jeudi 3 octobre jusqu'à nouvel ordre : fermé.")
    fr("/cancel", user=ADMIN)
    taught = fr("/teach tous | Le dîner est-il surveillé? | Oui. | aussi: dîner surveillé; repas du midi", user=ADMIN)
    assert taught.startswith("Aperçu : une nouvelle réponse pour tous les conseils scolaires")
    assert "Aussi formulée ainsi : dîner surveillé; repas du midi" in taught
    assert "/broadcast CONSEIL|tous TEXTE" in fr("/broadcast", user=ADMIN)
