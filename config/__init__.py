"""The shipped data: boards, intents and knowledge packs (YAML), found through importlib.resources."""
