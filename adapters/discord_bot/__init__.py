"""The Discord adapter: a thin layer between discord.py (2.x) and the core's one entry point.

Modules, one job each:

* :mod:`.convert` - Discord messages and interactions as ``Incoming``; chat ids.
* :mod:`.sender` - everything sent: replies, slash-command answers, broadcasts
  (``DiscordSender``); never a ping, split at 2,000 characters.
* :mod:`.choices` - the core's offered choices as buttons; a press as the asker's pick.
* :mod:`.slash` - the slash commands generated from ``bot.commands``, and their
  translations (``RegistryTranslator``).
* :mod:`.client` - the ``discord.Client`` and its event handlers (``DiscordAdapter``).
* :mod:`.runner` - logging in with start-up retries, the gateway, one-line errors
  (``run_discord``, ``open_sender``, ``DiscordStopped``).
* :mod:`.sync` - ``schoolbot discord sync`` (its arguments are in adapters/cli/platforms.py).
* :mod:`.platform` - ``DISCORD``, its entry in the platform registry (adapters/platforms.py).

Importing the package alone imports nothing; each module but ``platform`` imports discord.py.
The package is not called ``discord`` so that it can never shadow the library.
"""
