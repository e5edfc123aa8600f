"""The parser's grammar words: ordinals, separators, and the context that keeps ordinary words from being dates.

These are tuned against the development set (tests/core/test_dates.py); the day and month
words themselves are in config/dates.yaml (:mod:`bot.dates.vocabulary`).
"""

from __future__ import annotations

# results for spans that name no single day
INVALID = "invalid"  # looked like a date but is not one ("feb 30")
SPAN = "span"  # "sat or sun", "mon to fri"

# month names that are ordinary English words: they need a bare day number, not "first"
AMBIGUOUS_MONTHS = frozenset(("may", "march", "mar"))
AMBIG_MONTH_BAD_PREV = frozenset((
    "i", "you", "we", "they", "he", "she", "it", "there", "which", "who", "that", "this",
    "schools", "school", "union", "workers", "board", "boards", "parents", "kids", "teachers",
    "staff", "strike", "province", "government", "cupe",
))
AMBIG_MONTH_BAD_NEXT = frozenset((
    "more", "of", "percent", "per", "times", "people", "kids", "days", "weeks", "months",
    "years", "hours", "schools", "workers", "staff", "students", "%", "or", "x",
))

ORD_SUFFIX = frozenset(("st", "nd", "rd", "th", "er"))  # "er": French "1er octobre"
ORD_UNITS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9,
}
ORD_WORDS = dict(ORD_UNITS)
ORD_WORDS.update({
    "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    "twentieth": 20, "thirtieth": 30,
})
for _u, _v in ORD_UNITS.items():
    ORD_WORDS["twenty" + _u] = 20 + _v
ORD_WORDS["thirtyfirst"] = 31
ORD_TENS = {"twenty": 20, "thirty": 30}
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "a": 1,
}

WEEKEND_WORDS = frozenset((
    "weekend", "weekends", "wknd", "wknds", "wkend", "wkends", "weeknd", "wekend", "weekened",
    "weeekend", "weekned", "wkd", "fds",  # "fds": French "fin de semaine", as parents text it
))

MODIFIERS = frozenset(("this", "next", "nxt", "last", "past", "coming", "upcoming", "ce", "cet", "depuis", "since"))
# French "depuis lundi" (since Monday) is the last Monday; "mais" (but) puts the day after it first
FR_BUT = frozenset(("mais",))
# French: "ce matin", "ce soir", "cet aprem" (today); after the weekday: "lundi prochain" is the next
# Monday (as "lundi" alone), "lundi dernier" the last one
FR_PART_OF_TODAY = frozenset(("matin", "soir", "aprem", "midi"))
# Informal French "à matin", "à soir" (this morning, tonight): today, the "à" included
FR_AT_TODAY = frozenset(("matin", "soir"))
FR_AT = frozenset(("a", "\u00e0"))
FR_NEXT = frozenset(("prochain", "prochaine"))
FR_LAST = frozenset(("dernier", "derniere", "derni\u00e8re", "passe", "pass\u00e9"))
# "apres-demain" (+2) and "avant-hier" (-2): first word -> (second word, offset)
FR_TWO_DAYS = {"apres": ("demain", 2), "apr\u00e8s": ("demain", 2), "avant": ("hier", -2)}
# French "le 7", "le 1er", "du 8" (as English "the 7th"): the article makes a bare day number a day of the month
FR_DAY_ARTICLES = frozenset(("le", "du"))
# what may not follow such a number when it is to be a day ("le 3 enfants", "le 2 pour 1", "du 5 %")
FR_DAYNUM_BAD_NEXT = frozenset((
    "e", "eme", "\u00e8me", "ieme", "i\u00e8me", "ans", "an", "enfants", "enfant", "eleves", "\u00e9l\u00e8ves",
    "jours", "jour", "semaines", "semaine", "mois", "heures", "heure", "fois", "pour", "sur", "personnes",
    "places", "km", "x", "de", "des", "premiers", "derniers", "plus", "moins",
))
# "lundi de la semaine prochaine", "la semaine prochaine, lundi", "vendredi cette semaine"
FR_WEEK = frozenset(("semaine", "sem"))
# "dans 2 jours", "dans deux jours"
FR_NUMBER_WORDS = {"un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7,
                   "huit": 8, "neuf": 9, "dix": 10}
PART_OF_TODAY = frozenset(("morning", "afternoon", "evening", "aft", "arvo", "avo", "eve",
                            "morn", "mornin"))
PAIR_SEPS = frozenset(("or", "and", "ou", "et", "au", "&", "/", "-", "\u2013", "\u2014", "to", "thru",
                        "through", "n", "+", "till", "til", "until", "vs"))
RANGE_SEPS = frozenset(("-", "\u2013", "\u2014", "to", "au", "thru", "through", "till", "til",
                         "until"))
APOSTROPHES = frozenset(("'", "\u2019", "`", "\u2018"))

# short weekday forms that are also ordinary words: (bad previous word, bad next word)
SHORT_CONTEXT: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "sat": (
        frozenset(("i", "we", "they", "he", "she", "you", "who", "it", "kids", "kid", "just",
                   "had", "has", "have", "was", "were", "been", "then", "cat", "dog", "u",
                   "ive", "weve", "theyve", "finally", "still", "once", "never")),
        frozenset(("down", "around", "through", "there", "here", "idle", "empty", "outside",
                   "inside", "beside", "back", "alone", "together", "quietly", "exam",
                   "exams", "test", "tests", "score", "scores", "prep", "nav", "still",
                   "waiting", "silently", "up")),
    ),
    "sun": (
        frozenset(("the", "toronto", "ottawa", "calgary", "edmonton", "winnipeg", "vancouver",
                   "london", "a", "under", "hot", "bright", "setting", "rising", "midnight",
                   "morning", "summer", "winter", "some", "more", "much", "of")),
        frozenset(("life", "media", "news", "newspaper", "reported", "reports", "says", "is",
                   "was", "shine", "shines", "shining", "screen", "hat", "hats", "burn", "rise",
                   "set", "sets", "light", "protection", "tan", "damage", "exposure",
                   "glasses", "block", "room", "dried")),
    ),
    "wed": (
        frozenset(("get", "got", "getting", "gets", "newly", "be", "been")),
        frozenset(("like", "love", "need", "have", "be", "rather", "better", "want", "prefer",
                   "appreciate", "get", "go", "do", "know", "never", "probably", "still",
                   "also", "just", "all", "both", "only", "really", "definitely", "lose",
                   "miss", "send", "keep", "take", "pay", "find", "hear", "see", "call",
                   "couple", "couples")),
    ),
    "mon": (
        frozenset(("c", "ya", "yah", "yeah", "hey",
                   # French: "pour mon ...", "avec mon ...", "et mon ..."
                   "pour", "avec", "dans", "selon", "chez", "de", "et", "que", "sur", "par",
                   "sans", "est", "a", "\u00e0")),
        frozenset(("enfant", "enfants", "fils", "fille", "ami", "amie", "dieu", "pere",
                   "p\u00e8re", "mari", "chum", "\u00e9cole", "ecole", "cher", "coeur",
                   "fr\u00e8re", "frere", "petit", "b\u00e9b\u00e9", "bebe", "garcon",
                   "gar\u00e7on", "gars", "travail", "horaire", "bureau", "patron", "conjoint",
                   "\u00e9poux", "epoux", "copain", "prof", "professeur", "enseignant",
                   "enseignante", "\u00e9ducatrice", "educatrice", "quartier", "courriel",
                   "abonnement", "conseil", "avis", "c\u00f4t\u00e9", "cote", "service",
                   "cousin", "neveu", "oncle", "grand", "plus", "seul", "\u00e9l\u00e8ve",
                   "eleve", "coll\u00e8gue", "collegue", "boss", "employeur", "job", "ado", "cadet",
                   "cadette", "a\u00een\u00e9", "aine", "char", "auto", "chauffeur", "gardien", "gardienne")),
    ),
}

# what may not follow "the 7th" when it is to be a date
NTH_BAD_NEXT = frozenset((
    "grade", "grades", "grader", "graders", "gr", "grd", "floor", "period", "time", "times",
    "place", "year", "years", "day", "days", "week", "weeks", "month", "months", "century",
    "anniversary", "birthday", "inning", "hour", "hours", "percentile", "round", "attempt",
    "try", "class", "row", "street", "st", "ave", "avenue", "person", "kid", "child",
    "student", "teacher", "school", "board", "edition", "generation", "largest", "biggest",
    "most", "best", "worst", "smallest", "one", "ones", "of", "line", "team", "level",
    "semester", "term", "strike", "meeting", "session", "offer", "contract", "deal", "bday",
    "b", "consecutive", "straight", "amendment", "reading", "draft", "step",
))
# after "the 7th in": these make it a rank ("the 5th in line", "3rd in the class"), not a day
NTH_BAD_AFTER_IN = frozenset(("line", "a", "the", "class", "row", "grade", "my", "his", "her", "our", "their"))
# words before a bare number that make it a count, a grade or a label, not a day
NUM_BAD_PREV = frozenset((
    "grade", "grades", "gr", "grd", "rated", "rating", "score", "scored", "room", "rm", "bus",
    "route", "no", "number", "#", "ch", "chapter", "page", "pg", "step", "level", "unit",
    "ratio", "mark", "marks", "got", "gave", "about", "over", "under", "than", "only", "just",
    "nearly", "almost", "x", "version", "v", "class", "kids", "ages", "age", "aged", "top",
    "bill", "$",
))
# after "1/2": a fraction, not January 2
FRACTION_NEXT = frozenset((
    "day", "days", "of", "hr", "hrs", "hour", "hours", "off", "price", "time", "cup", "cups",
    "tsp", "tbsp", "way", "split", "class", "inch", "inches", "km", "mile", "miles", "kg",
    "lb", "lbs", "pay", "staff", "majority", "strength", "mark",
))
# after a day number: a time or a quantity, not a day
DAYNUM_BAD_NEXT = frozenset((
    "am", "pm", "oclock", "percent", "pct", "%", "million", "billion", "thousand", "hundred",
    "k", "m", "hrs", "hr", "h", "min", "mins", "minutes", "hours", "hour", "sec", "secs",
    "seconds", "ish",
))
ON_WORDS = frozenset(("on", "by", "until", "till", "til", "before", "after", "since", "from",
                       "for", "starting", "thru", "through", "begins", "ends", "effective"))
