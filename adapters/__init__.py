"""Platform adapters: one module per platform, each converting messages to and from bot.messages."""
