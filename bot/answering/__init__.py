"""Answering one understood message: the core (bot/core.py) hands these modules a Turn
(bot/turn.py: the message, what the matcher understood, the user's memory, one knowledge
snapshot) and a Session (bot/session.py: what they may ask of the bot: subjects, boards,
answer cards, remember the board, subscriptions, log a pick), and gets an Answer back
(bot/turn.py: the texts and the intent, topic, board, day and card they answer).

- ``pipeline``: the order a question is answered in (the core calls it once per question, after
  ``readings.the_question_asked`` read which sentence asks);
- ``readings``: second readings of a message before it is answered;
- ``following`` (with ``social_turns``): the turns that lean on the conversation;
- ``card_choice``: which answer card answers; ``intents``: the answer per intent;
- ``chat_settings``: the turns that change the user's board and the chat's subscriptions;
- ``on_subject``, ``passages``, ``trimming``: keeping a reply on what was asked, the last look
  before "not sure", a reply's last touches.

Nothing here imports the core, type-only imports included (tests/test_architecture.py). This
file imports nothing, so importing one module of the package loads no other.
"""
