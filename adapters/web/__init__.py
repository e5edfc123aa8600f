"""The staff web page (docs/web.md): boards at a glance, a board's page, what parents are asking, the audit
log with undo, and setting a status or teaching a card through the same plans as chat.

Module map: app.py (the routes, headers, running it), auth.py (one-time links, sessions, the check before
every route), acting.py (forms into chat's plans, /confirm, /cancel), pages.py (answering with a page, the
preview -> confirm steps), html.py (the layout; every value escaped), boards.py, asking.py, audit.py (the
pages), keys.py (what handlers find on the application).

aiohttp is imported only when the page runs: `schoolbot serve --web` imports this package then.
"""
