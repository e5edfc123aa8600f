"""A digest of every reply the bot gives to the evaluation sets' questions and the core bench's first 6,000.

    python bench/replies_digest.py

A speed change must leave replies byte-identical: run this before and after it; the same digest
means the same replies. Prints figures; asserts nothing.
"""

import glob
import hashlib
import json
import os
import random
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.chdir(ROOT)
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import core as B  # noqa: E402

from bot.app import build_bot  # noqa: E402
from bot.messages import Incoming  # noqa: E402
from bot.settings import Settings  # noqa: E402

h = hashlib.sha256()
n = 0
tmp = tempfile.mkdtemp()
bot = build_bot(Settings().replace("database", path=os.path.join(tmp, "d.db")))
sets = [*sorted(glob.glob("tests/data/*.jsonl")), "../shared/devset/questions.jsonl"]
for f in (f for f in sets if os.path.exists(f)):
    for i, line in enumerate(Path(f).read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        d = json.loads(line)
        if "turns" in d:  # a conversation file: its turns, one parent, in order
            now, user = datetime.fromisoformat(d["now"]), f"{f}-{i}"
            for k, turn in enumerate(d["turns"]):
                text = turn if isinstance(turn, str) else turn["text"]
                for r in bot.handle(Incoming("eval", user, user, text, now + timedelta(seconds=10 * k))):
                    h.update(r.text.encode() + b"\0")
                    n += 1
            continue
        now, user = datetime.fromisoformat(d["now"]), f"{f}-{i}"
        for c in d.get("context") or []:
            bot.handle(Incoming("eval", user, user, c, now - timedelta(seconds=10)))
        for r in bot.handle(Incoming("eval", user, user, d["text"], now)):
            h.update(r.text.encode() + b"\0")
            n += 1
rng = random.Random(2019)
base = B.load_texts()
texts = [B.vary(rng.choice(base), rng) for _ in range(6000)]
for i, t in enumerate(texts):
    user = str(i % 500)
    for r in bot.handle(Incoming("bench", user, user, t, B.NOW + timedelta(seconds=i))):
        h.update(r.text.encode() + b"\0")
        n += 1
print(n, "replies, digest", h.hexdigest()[:16])
