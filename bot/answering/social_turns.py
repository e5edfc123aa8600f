"""The short turns that ask nothing: "thanks", "hello", "bye", "ok" (an acknowledgement, "never mind"), a reaction
with a few words of its own ("Thank you dear", "figures. k"), a reaction then the parent's own plan ("ok I'll call
the school"), and a question about how recent the bot's news is ("why don't you know?"). Each gets one short line
(bot/answering/following.py), never the help, never "not sure".
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.text import plain_words

_SOCIAL = {
    "thanks": {"thanks", "thank you", "thank you so much", "thank you very much", "thanks a lot", "many thanks",
               "merci", "merci beaucoup", "cheers", "great thanks", "ok thanks", "ok thank you", "perfect thanks",
               "thanks so much", "thank u", "awesome thanks", "great", "perfect", "got it", "ok great",
               "ok got it", "super merci", "parfait merci", "appreciate it", "much appreciated", "that helps",
               "thanks that helps", "good to know", "ok good to know"},
    "hello": {"hi", "hello", "hey", "hey there", "hi there", "hello there", "good morning", "good afternoon",
              "good evening", "bonjour", "salut", "allo", "yo", "hiya", "greetings", "morning"},
    "bye": {"bye", "goodbye", "good bye", "bye bye", "see you", "see ya", "cya", "later", "have a good day",
            "have a nice day", "good night", "au revoir", "bonne journee", "take care", "thanks bye",
            "thank you bye", "ok bye", "thanks goodbye"},
    # An acknowledgement: one short line back, never the help or "not sure".
    "ok": {"ok", "good", "ok good", "fine", "ugh ok", "ugh fine", "ugh", "oh ok", "ok then", "alright", "alright then",
           "never mind", "nevermind", "nvm", "never mind then", "nevermind then", "no worries", "forget it",
           "laisse faire", "oublie ca", "pas grave", "c'est pas grave", "tant pis",
           "cool", "noted", "i see", "ok i see", "sounds good", "makes sense", "ok makes sense", "understood",
           "ok understood", "gotcha", "right", "ok cool", "oh", "hmm", "hmm ok", "ah ok", "ah", "wow", "oh no",
           "ok sure", "sure", "yep", "yes", "yeah", "ok will do", "will do", "np", "no worries", "ok np",
           "d'accord", "d accord", "dac", "ok d'accord", "bon", "bon ok", "ben ok", "correct", "compris", "je vois",
           "ah bon", "ok parfait", "entendu", "oui", "ouais", "super", "bien", "tres bien", "ok super"},
}
_SHORT = {"ty": "thanks", "thx": "thanks", "tks": "thanks", "thnx": "thanks", "thanx": "thanks", "tysm": "thanks",
          "k": "ok", "kk": "ok", "okay": "ok", "okk": "ok", "okok": "ok", "oki": "ok", "hii": "hi", "heyy": "hey",
          "bcp": "beaucoup", "mrc": "merci", "merci!": "merci", "ty!": "thanks"}  # as typed -> as the lists hold it
_LEADING = frozenset({"ok", "oh", "ah", "alright", "cool", "great", "perfect", "awesome", "right", "well", "d'accord",
                      "bon", "ben", "parfait", "super", "ah", "ugh"})


@lru_cache(maxsize=16384)  # parents repeat themselves
def social_turn(norm: str) -> str | None:
    """'thanks', 'hello', 'bye' or 'ok' (an acknowledgement) when the whole message is only that (with "so",
    "again", a name...)."""
    text = plain_words(norm)
    for suffix in (" again", " bot", " schoolbot", " so much", " a lot", " everyone", " all"):
        if text.endswith(suffix) and len(text) > len(suffix):
            text = text[: -len(suffix)]
    words = [_SHORT.get(word, word) for word in text.split()]
    whole = " ".join(words)
    if whole in _SOCIAL["ok"]:  # "ok good", "oh ok": kept whole before the leading words go
        return "ok"
    while len(words) > 1 and words[0] in _LEADING:  # "ok thx", "great thanks", "oh ok thank you"
        words = words[1:]
    text = " ".join(words)
    for kind, phrases in _SOCIAL.items():
        if text in phrases:
            return kind
    return None


# A reaction with a few words of its own ("Thank you dear", "ok thx night", "figures. k", "lol ok. no pizza
# then", "thanks for being straight with me"): still nothing asked, so one short line back.
_THANKS_WORDS = frozenset({"thanks", "thank", "merci", "appreciate", "appreciated", "cheers", "remercie"})
_BYE_WORDS = frozenset({"bye", "night", "goodnight", "nite", "later", "nuit", "bonsoir", "cya", "soiree"})
_OK_WORDS = frozenset({"ok", "fine", "alright", "cool", "noted", "gotcha", "understood", "sure", "yep", "yeah", "sorry",
                       "oui", "ouais", "d'accord", "dac", "compris", "great", "good", "wonderful", "perfect",
                       "awesome", "super", "nice", "lovely", "parfait", "fair"})
# Words of a reaction that alone do not react to the answer ("lol my cat knocked my coffee over"): with others,
# they need one of the words above.
_MOOD_WORDS = frozenset({"figures", "whatever", "wow", "lol", "haha", "sigh", "ugh", "rassurant", "lmao", "smh",
                         "bon", "tant", "pis", "oh", "ah", "well"})
# Words that turn a message into a question, whatever else it holds.
_ASKING = frozenset({"what", "whats", "when", "where", "why", "who", "how", "is", "are", "will", "can", "could",
                     "should", "do", "does", "did", "would", "any", "anything", "which", "quand", "pourquoi",
                     "qui", "comment", "ou", "combien", "quoi", "est", "est-ce", "va", "vont", "peut", "faut",
                     "if", "si", "but", "mais", "tomorrow", "today", "monday", "tuesday", "wednesday",
                     "thursday", "friday", "demain", "lundi", "mardi", "mercredi", "jeudi", "vendredi"})


_CLAUSES = re.compile(r"[.,;:!]+")
_CLAUSE_LEADING = _LEADING | {"so", "and", "but"}  # words before a clause's opener ("ok what do you know")
_SYMBOLS = re.compile(r"[^\w\s.,;:!?'\"()\-]")  # emoji and other symbols, not punctuation alone


@lru_cache(maxsize=16384)  # parents repeat themselves
def reaction(raw_norm: str) -> str | None:
    """'thanks', 'bye' or 'ok' for a message that reacts to the last answer and asks nothing: no question mark,
    at most eight words, none that asks, and a reaction word first or last ("Thank you dear", "figures. k",
    "ok thx night", "thanks for being straight with me", "wow super rassurant"). The caller checks that no
    board, day or subject is named."""
    if "?" in raw_norm:
        return None
    words = [_SHORT.get(w, w) for w in plain_words(raw_norm.replace("quand meme", "anyway")).split()]  # not "when"
    if not words:
        return "ok" if _SYMBOLS.search(raw_norm) else None  # "👍", "🙏": a reaction without words
    # an asking word opens a question only at the start of a sentence: "ok. thanks. this is a lot" asks nothing
    openers = set()
    for sentence in _CLAUSES.split(raw_norm):
        clause = [_SHORT.get(w, w) for w in sentence.split()]
        while len(clause) > 1 and clause[0] in _CLAUSE_LEADING:  # "ok what do you know"
            clause = clause[1:]
        openers.update(clause[:1])
    if len(words) > 8 or not _ASKING.isdisjoint(openers) or "if" in words or "si" in words:
        return None
    reacting = _THANKS_WORDS | _BYE_WORDS | _OK_WORDS
    if {words[0], words[-1]}.isdisjoint(reacting | _MOOD_WORDS) or (
            reacting.isdisjoint(words) and not _MOOD_WORDS.issuperset(words)):
        return None
    if not _THANKS_WORDS.isdisjoint(words):
        return "thanks"
    if not _BYE_WORDS.isdisjoint(words):
        return "bye"
    return "ok"


EXCLAMATION_WORDS = 3  # at most this many words, none asking and no "?": "ouache", "yikes", "lol this province"


@lru_cache(maxsize=16384)
def exclamation(raw_norm: str) -> bool:
    """Whether a message nothing understood is a short exclamation ("ouache", "yikes", "lol this province"): at
    most three words, one of them an interjection, none asking. After an answer, one short line back rather than
    "not sure" and the help."""
    if "?" in raw_norm or raw_norm.lstrip().startswith("/"):
        return False
    words = [part for word in plain_words(raw_norm).split() for part in word.split("'")]  # "who's right": who
    return 0 < len(words) <= EXCLAMATION_WORDS and _ASKING.isdisjoint(words) and not _INTERJECTIONS.isdisjoint(words)


# Words that make a short message an exclamation ("blorp zingle wibble" is an unanswered question, "yikes" is not)
_INTERJECTIONS = _MOOD_WORDS | frozenset({
    "ouache", "yikes", "yuck", "eww", "ew", "gross", "omg", "oof", "geez", "jeez", "damn", "dang", "argh", "sheesh",
    "meh", "pfff", "pff", "bof", "ouf", "ayoye", "misere", "oups", "oops", "yay", "phew", "whew", "crap", "ridiculous",
    "unbelievable", "typical", "insane", "crazy", "seriously", "wtf", "tabarnak"})


# "ok I'll ask the teacher", "thanks, we'll check the board site tonight", "d'accord je vais appeler l'école": a
# reaction, then what the parent will do. Nothing is asked, whatever the plan names (a board, a teacher, a day).
_PLAN_VERBS = r"(?:keep|check|call|ask|wait|watch|look|email|see|try|contact|phone|text|read|figure|plan|find|get|stay)"
_PLAN = re.compile(
    r"^(?:(?:ok|okay|k|kk|alright|right|thanks|thank you|thx|ty|merci|merci beaucoup|d'accord|dac|great|perfect|"
    r"fine|got it|gotcha|cool|good|parfait|super|bon|ok then|ok so|so)[\s,.!]+)+"
    r"(?:i guess |then |so |well )?"
    r"(?:i'll|i will|ill|i'm going to|im going to|i am going to|i'm gonna|im gonna|gonna|we'll|we will|will do|"
    r"i can|i should|i need to|je vais|on va|j'vais|je devrais|je dois|"
    # "thanks, will keep an eye out", "ok will check peelschools": the plan without its "I"
    r"will " + _PLAN_VERBS + r")\b")

_THEN_ASKS = re.compile(r"(?:[,;:]|\bbut|\bmais)\s*(?:is|are|will(?! " + _PLAN_VERBS + r"\b)|can|could|should|do|does|did|what|whats|when|where|why|how|"
                        r"est-ce|est|quand|pourquoi|comment|va|vont)\b")  # "ok i'll be home monday, is school open"


# "why don't you know", "when did you last get news", "so basically nobody knows", "pourquoi tu le sais pas": a
# question about how recent the bot's own news is, answered with its newest news's day and where boards post first.
_HOW_RECENT = re.compile(
    r"\b(?:why (?:dont|don't|do not|didnt|didn't|cant|can't|wouldnt|wouldn't) (?:you|u|ya) know"
    r"|how come (?:you|u) (?:dont|don't|do not|didnt|didn't) know"
    r"|^(?:(?:seriously|really|so|wait|what|lol|ugh)\s+)*(?:you|u) (?:really )?(?:dont|don't|do not) (?:know|have any news)$"
    r"|how (?:old|recent) is (?:this|that|it)$|is (?:this|that) (?:old|old news|current|recent|still current)$"
    r"|when (?:was|is) (?:this|that) from$|when was (?:this|that) (?:said|posted|published|written)$"
    r"|(?:ca|cette info|ces infos|c'est) date(?:nt)? de quand|c'est de quand|de quand (?:ca|c'est) date"
    r"|^(?:(?:serieux|vraiment|ben)\s+)*(?:tu|vous) (?:le )?(?:sais|savez) (?:pas|rien)$"
    r"|when did (?:you|u) (?:last )?(?:get|hear|update|check)"
    r"|when (?:was|is) (?:your|ur|the) (?:last|latest) (?:update|news|info)"
    r"|how (?:old|recent|current|up to date) (?:is|are) (?:your|ur|this|that|the|these) (?:news|info|information|data|updates?)"
    r"|(?:is|are) (?:your|ur|this|that) (?:news|info|information|data) (?:up to date|current|old|outdated|recent|stale)"
    r"|(?:so )?(?:basically )?(?:nobody|no one|noone) (?:knows|really knows|has a clue)"
    r"|pourquoi (?:tu |vous )?(?:ne )?(?:le |l'|la )?(?:sais|savez|connais|connaissez) pas"
    r"|(?:tes|vos|les) (?:infos|informations|nouvelles) (?:sont|sont-elles|sont tu) (?:a jour|vieilles|recentes)"
    r"|(?:ta|votre) derniere (?:mise a jour|nouvelle)|personne (?:ne )?(?:le )?sait)\b")


# "so what does that mean for my kid", "donc pour ma fille ça veut dire quoi concrètement": what the last answer
# means for the family, after a step of the dispute (answered with the day's status, which says what holds).
_MEANS_FOR_US = re.compile(
    r"\b(?:what|wat) (?:does|do|will|would) (?:that|this|it|all that|all this|any of this|any of that) (?:even |actually "
    r"|really )?mean (?:for|to) (?:my|me|us|our|parents|families|the kids)\b"
    r"|\bhow (?:does|will|would|is) (?:that|this|it) (?:gonna )?(?:affect|change things for) (?:my|me|us|our)\b"
    r"|\b(?:ca|cela|ce|c'est que ca) veut dire quoi (?:pour|concretement)\b|\bveut dire quoi pour (?:ma|mon|mes|nous|les)\b"
    r"|\bpour (?:ma fille|mon fils|mes enfants|nous|mon enfant)\b.{0,20}\b(?:veut dire quoi|concretement)\b")


@lru_cache(maxsize=16384)  # parents repeat themselves
def asks_what_it_means_for_us(norm: str) -> bool:
    """Whether a short message asks what the last answer means for the family (see _MEANS_FOR_US)."""
    return _short_and_said(_MEANS_FOR_US, norm, 70)


@lru_cache(maxsize=16384)  # parents repeat themselves
def asks_how_recent(norm: str) -> bool:
    """Whether the message asks how recent the bot's news is, or says nobody knows (see _HOW_RECENT)."""
    return _short_and_said(_HOW_RECENT, norm, 80)


def _short_and_said(pattern: re.Pattern, norm: str, limit: int) -> bool:
    """Whether a message of at most `limit` characters (its plain words) says what `pattern` finds."""
    plain = plain_words(norm)
    return len(plain) <= limit and pattern.search(plain) is not None


@lru_cache(maxsize=16384)  # parents repeat themselves
def plan_stated(raw_norm: str) -> str | None:
    """'thanks' or 'ok' for a reaction followed by the parent's own plan ("ok I'll call the school"): no question
    mark, a reaction word first, then "I'll", "we'll", "je vais"..."""
    if "?" in raw_norm or len(raw_norm) > 160 or not _PLAN.match(raw_norm) or _THEN_ASKS.search(raw_norm):
        return None
    words = {_SHORT.get(word, word) for word in plain_words(raw_norm).split()}
    return "thanks" if _THANKS_WORDS & words else "ok"


# A question about the bot itself: "are you a real person", "who made you", "are you connected to the school board?",
# "t'es-tu un vrai humain ou un bot?". One line on what it is, never the whole help.
_ABOUT_THE_BOT = re.compile(
    r"\b(?:(?:are|r) (?:you|u)|is this|es[- ]tu|t'es[- ]tu|t'es tu|tes tu|etes[- ]vous|c'est tu) (?:a |an |une? )?"
    r"(?:real |vrai |vraie |actual )?(?:person|human|bot|robot|ai|machine|humain|humaine|personne|chatbot|computer)\b"
    r"|\bwho (?:made|built|created|runs|owns|programmed|wrote|is behind) (?:you|u|this bot|this)\b"
    r"|\bqui (?:t'a|vous a|a) (?:fait|cree|programme)\b"
    r"|\b(?:are|r) (?:you|u) (?:connected|affiliated|linked|part of|from|with|run by|official)\b"
    r"|\bis this (?:official|from the board|the board|run by the board)\b"
    r"|\b(?:es[- ]tu|etes[- ]vous|t'es[- ]tu) (?:officiel|du conseil|relie|lie)\b")


@lru_cache(maxsize=16384)  # parents repeat themselves
def asks_about_the_bot(norm: str) -> bool:
    """Whether a short message asks what the bot is: a person, who made it, whether it is the school board's."""
    return _short_and_said(_ABOUT_THE_BOT, norm, 120)
