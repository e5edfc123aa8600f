"""The knowledge base: model, validated loading from config/ files, and the SQLite store."""
