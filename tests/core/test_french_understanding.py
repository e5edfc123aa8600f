"""Understanding French and franglais: intents, boards (French boards for French messages) and dates."""

from datetime import date

import pytest

THU = date(2019, 10, 3)
MON, FRI, SAT = date(2019, 10, 7), date(2019, 10, 4), date(2019, 10, 5)


@pytest.fixture
def analyse(shared_matcher):
    return lambda text, language=None: shared_matcher.analyse(text, THU, language)


def board_of(analysis) -> str | None:
    return analysis.board.board_id if analysis.board else None


@pytest.mark.parametrize(
    "text, board",
    [
        # a city served by English and French boards: a French message means the French public board
        ("est-ce que l'école est ouverte lundi à Ottawa?", "cepeo"),
        ("les écoles de Toronto sont fermées lundi?", "csviamonde"),
        ("l'ecole est fermee a sudbury lundi", "cspgno"),
        ("c'tu ouvert demain à North Bay", "cspne"),
        # ... with "catholique" the French Catholic board
        ("l'école catholique à Ottawa est ouverte lundi?", "cecce"),
        ("mon école catholique à Toronto va tu fermer", "cscmonavenir"),
        ("les écoles catholiques de Sudbury sont fermées?", "cscno"),
        # places inside a region or city the French boards serve
        ("l'école est-tu ouverte lundi à Val Caron?", "cspgno"),
        ("l'école catholique à Azilda est-tu fermée?", "cscno"),
        ("les écoles de Niagara ferment-tu?", "csviamonde"),
        ("c'tu fermé lundi dans Prescott-Russell?", "cepeo"),
        ("is school open in prescott-russell monday?", "ucdsb"),
        # ... unless it asks for the English board
        ("l'école anglaise à Ottawa est ouverte lundi?", "ocdsb"),
        # an English message keeps today's rule
        ("is school open monday in ottawa", "ocdsb"),
        ("is the catholic school in ottawa open monday", "ocsb"),
        ("is the french school in ottawa open monday", "cepeo"),
        ("is the french catholic school in ottawa open", "cecce"),
        # "le conseil français", "l'école française" with a city
        ("le conseil français d'Ottawa ferme lundi?", "cepeo"),
        ("l'école française de Mississauga est ouverte?", "csviamonde"),
        ("on est à Ottawa", "cepeo"),  # "à" says French
        # a place only an English board serves stays English
        ("est-ce que les écoles de Peel sont ouvertes lundi", "pdsb"),
    ],
)
def test_french_message_prefers_french_board(analyse, text, board):
    assert board_of(analyse(text)) == board


def test_user_language_decides_when_the_message_does_not(analyse):
    assert board_of(analyse("ottawa")) == "ocdsb"
    assert board_of(analyse("ottawa", "fr")) == "cepeo"
    assert board_of(analyse("ottawa catholique", "fr")) == "cecce"
    # the message's own language wins over the user's
    assert board_of(analyse("is school open monday in ottawa", "fr")) == "ocdsb"


def test_two_french_boards_of_one_kind_first_listed_wins():
    """Where two French boards of one system serve a city, the one listed first in boards.yaml is meant."""
    from bot.boards import BoardFinder
    from knowledge.model import Board

    boards = [
        Board("englishpub", "Riverton District School Board", "public", "english", "https://e.example", (), ("Riverton",)),
        Board("frpub1", "Conseil scolaire Un", "public", "french", "https://1.example", (), ("Lakeside", "Riverton")),
        Board("frpub2", "Conseil scolaire Deux", "public", "french", "https://2.example", (), ("Riverton",)),
        Board("frcat1", "Conseil scolaire catholique Trois", "catholic", "french", "https://3.example", (), ("Riverton",)),
    ]
    finder = BoardFinder(boards)
    assert finder.find("riverton", "fr").board_id == "frpub1"
    assert finder.find("ecole catholique riverton", "fr").board_id == "frcat1"
    assert finder.find("riverton", "en").board_id == "englishpub"
    assert BoardFinder(list(reversed(boards))).find("riverton", "fr").board_id == "frpub2"


def test_platform_language_reaches_the_matcher_through_handle(bot):
    from dataclasses import replace

    from tests.conftest import message

    french = bot.respond(replace(message("ottawa", user="fr1"), language="fr-CA"))
    english = bot.respond(replace(message("ottawa", user="en1"), language="en-US"))
    unknown = bot.respond(message("ottawa", user="xx1"))
    assert (french.board, english.board, unknown.board) == ("cepeo", "ocdsb", "ocdsb")


@pytest.mark.parametrize(
    "text, intent, day",
    [
        # franglais: intent, board and date all understood
        ("is l'école open lundi?", "school_status", MON),
        ("c'est open demain?", "school_status", FRI),
        ("school ouverte lundi?", "school_status", MON),
        ("is the garderie open during the grève?", "childcare", None),
        # weekdays with and without accents, relative days
        ("l'école est ouverte lundi?", "school_status", MON),
        ("ecole ouverte apres-demain?", "school_status", SAT),
        ("l'école est ouverte après-demain?", "school_status", SAT),
        ("y a tu de l'école lundi prochain", "school_status", MON),
        ("c'tu fermé vendredi", "school_status", FRI),
        ("est-ce que l'école est fermée aujourd'hui", "school_status", THU),
    ],
)
def test_franglais_and_french_dates(analyse, text, intent, day):
    analysis = analyse(text)
    assert analysis.intent == intent
    assert (analysis.date.day if analysis.date else None) == day


# One French phrasing per intent, as parents type it (with and without accents).
FRENCH_INTENTS = [
    ("c'est quand la grève?", "strike_dates"),
    ("la greve commence quand", "strike_dates"),
    ("c'est quand le débrayage", "strike_dates"),
    ("quels services sont retirés pendant la grève du zèle?", "withdrawn_services"),
    ("les concierges vont-ils nettoyer les écoles?", "withdrawn_services"),
    ("le service de garde est ouvert?", "childcare"),
    ("les EPE sont en grève?", "childcare"),
    ("où en sont les négociations", "negotiations"),
    ("y a-t-il une entente?", "negotiations"),
    ("qui fait la grève?", "who_is_affected"),
    ("le SCFP c'est qui", "who_is_affected"),
    ("pourquoi ils font la grève", "dispute_issues"),
    ("c'est quoi la grève du zèle", "work_to_rule"),
    ("ça veut dire quoi travail au ralenti", "work_to_rule"),
    ("où trouver les mises à jour officielles", "updates_source"),
    ("je veux m'abonner aux alertes", "subscribe"),
    ("je veux me désabonner", "unsubscribe"),
    ("mon fils est au CEPEO", "set_board"),
    ("parlez-vous français?", "help"),
    ("bonjour", "help"),
    ("quelle est la météo demain", "unknown"),
    # families generalised from unseen questions (fresh8_fr), in phrasings of their own
    ("ma fille va au CECCE", "set_board"),
    ("peux-tu me texter si l'école ferme demain", "subscribe"),
    ("arrête de m'envoyer des alertes", "unsubscribe"),
    ("j'ai pas de gardienne mardi si l'école ferme, je fais quoi?", "childcare"),
    ("est-ce qu'il y a de l'école pendant la grève du zèle?", "school_status"),
    ("qu'est-ce qui arrête à l'école avec la grève du zèle?", "withdrawn_services"),
    ("ils font la grève à partir de quand?", "strike_dates"),
    ("la grève va durer combien de temps selon vous?", "unknown"),
    ("raconte-moi une blague", "unknown"),
]


@pytest.mark.parametrize("text, intent", FRENCH_INTENTS)
def test_french_intents(analyse, text, intent):
    assert analyse(text).intent == intent


@pytest.mark.parametrize(
    "name, board",
    [
        ("CEPEO", "cepeo"), ("CECCE", "cecce"), ("CSDC Centre-Est", "cecce"), ("csdc du centre est", "cecce"),
        ("CSViamonde", "csviamonde"), ("Viamonde", "csviamonde"), ("MonAvenir", "cscmonavenir"),
        ("CSDCEO", "csdceo"), ("CSC Providence", "cscprovidence"), ("CSDC des Grandes Rivières", "cscdgr"),
        ("csdc des grandes rivieres", "cscdgr"), ("Nouvelon", "cscno"), ("CSC Franco-Nord", "franconord"),
        ("Aurores boréales", "csdcab"), ("aurores boreales", "csdcab"), ("conseil scolaire catholique d'Ottawa", "cecce"),
        ("le conseil français de Toronto", "csviamonde"), ("l'école française à Sudbury", "cspgno"),
        ("conseil scolaire de Sudbury", "cspgno"),
    ],
)
def test_french_board_names(shared_matcher, name, board):
    assert shared_matcher.boards.lookup(name).id == board


@pytest.mark.parametrize(
    "text, not_wanted",
    [
        ("l'école est ouverte dans la semaine?", "days"),  # not a misspelt "days"
        ("les écoles ouvrent en mars?", "marks"),  # "mars" is March, not marks (an exam question)
        ("ils doivent lire le message", "lice"),
        ("c'est seulement les concierges?", "settlement"),
        ("vous êtes où?", "eces"),
        ("dites-moi si c'est ouvert", "dates"),
        ("tout le monde est en grève?", "monday"),
        ("c'est le seul service coupé?", "school"),  # "seul" is not a misspelt "skul"
    ],
)
def test_french_words_are_not_corrected_into_english_ones(analyse, text, not_wanted):
    analysis = analyse(text)
    assert not_wanted not in analysis.processed.split()
    assert analysis.out_of_scope is None


@pytest.mark.parametrize(
    "text, day",
    [
        ("l'école est fermée le 7 octobre?", MON),
        ("ouvert le 15 janvier?", date(2020, 1, 15)),
        ("fermé le 12 fevrier", date(2020, 2, 12)),
        ("grève le 3 avril?", date(2020, 4, 3)),
        ("c'tu ouvert samdi", SAT),  # a typo of samedi
    ],
)
def test_french_months_and_day_typos(analyse, text, day):
    assert analyse(text).date.day == day


@pytest.mark.parametrize("text, command, intent", [
    ("/aide", "aide", "help"),
    ("/conseil ottawa", "conseil", "set_board"),
    ("/statut cepeo lundi", "statut", "school_status"),
    ("/abonner cepeo", "abonner", "subscribe"),
    ("/désabonner", "desabonner", "unsubscribe"),
])
def test_french_command_names_are_understood(analyse, text, command, intent):
    found = analyse(text)
    assert (found.command, found.intent) == (command, intent)


def test_a_french_command_name_is_answered_in_french(bot):
    from tests.conftest import message

    assert bot.handle(message("/aide", user="fr2"))[0].text.startswith("Je réponds aux questions des parents")
    assert "cepeo.on.ca" in bot.handle(message("/conseil ottawa", user="fr2"))[0].text  # the French board
    assert bot.handle(message("/help", user="en2"))[0].text.startswith("I answer parents' questions")


@pytest.mark.parametrize(
    "text, word",
    [
        ("l'EPE travaille tu demain", "ece"),  # "l'EPE" is "le EPE", not a word "lepe"
        ("l'éducatrice de ma fille sera là?", "ece"),
        ("qui donne l'épipen à mon fils", "epipen"),
        ("c'est quand l'entente", "deal"),
        ("plus d'alertes merci", "alerts"),
        ("y a tu d'l'école demain", "school"),  # two elisions in a row
        ("l'enseignante de ma fille est tu en grève", "teacher"),
    ],
)
def test_french_elisions_are_split(analyse, text, word):
    assert word in analyse(text).processed.split()


def test_an_elision_slang_knows_joined_stays_joined(analyse):
    """Slang written joined ("lecole", "sil y a") still reads the typed "l'école", "s'il y a"."""
    assert analyse("l'école est fermée?").processed.split()[:2] == ["the", "school"]
    assert "lecole" not in analyse("l'école est fermée?").processed


def test_english_apostrophes_are_not_elisions(analyse):
    assert analyse("don't send me alerts").processed == analyse("dont send me alerts").processed
    assert analyse("it's closed?").processed == analyse("its closed?").processed


def test_french_examples_do_not_pull_english_questions():
    """Slang turns French words into English ones, so a French example could win an English question;
    a clearly English message is compared with the English (and neutral) examples only."""
    from bot.boards import BoardFinder
    from bot.intent_data import INTENTS, IntentData
    from bot.matcher import IntentMatcher

    examples = [("childcare", "where can my kids go during the day"),
                ("updates_source", "est-ce que le bureau du conseil est ouvert"),  # French, about the office
                ("school_status", "is the school open")]
    examples += [(intent, f"zz {intent}") for intent in INTENTS if intent not in ("childcare", "updates_source", "school_status")]
    data = IntentData({"bureau": "office", "ouvert": "open", "est-ce": "is", "que": "", "le": "the",
                       "du": "of", "conseil": "board", "est": "is"}, tuple(examples), {}, ())
    matcher = IntentMatcher(data, BoardFinder([]), min_confidence=0.3, min_margin=0.02, max_chars=500)
    english = matcher.analyse("is the board office open", THU)
    french = matcher.analyse("est-ce que le bureau est ouvert", THU)
    assert english.english and not french.english
    assert english.scores["updates_source"] < matcher.analyse("le bureau du conseil est ouvert", THU).scores["updates_source"]
    assert french.intent == "updates_source"
    assert english.intent == "school_status"


def test_a_misspelt_slang_word_gets_the_slang_meaning(shared_matcher):
    """The speller corrects 'enseignnts' to the slang word 'enseignants', whose meaning ('teachers') is then used."""
    assert shared_matcher._words("les enseignnts") == shared_matcher._words("les enseignants")
    assert "teachers" in shared_matcher._words("les enseignnts")
