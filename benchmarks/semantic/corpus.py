"""A synthetic home for the semantic benchmarks: N one-line agent events with topical text.

Each event belongs to one of 300 topics (30 words each) and one of 60 projects (Zipf-like sizes),
and mixes 5-9 topic words with 2-4 words of a shared Zipfian vocabulary, an identifier and
sometimes a path: enough structure for LSA to find, the kind of text upstream's logs hold.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from carto_core.logio.appendlog import append_lines
from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row

NOW = datetime(2026, 9, 8, 12, tzinfo=timezone.utc)
LABELS = ["changelog", "tool-use", "research", "milestones", "prompts", "turns"]
WEIGHTS = [50, 15, 8, 5, 7, 15]


def _word(rng: random.Random) -> str:
    consonants, vowels = "bcdfghklmnprstvz", "aeiou"
    return "".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(rng.randint(2, 4)))


def vocabulary(seed: int = 5):
    rng = random.Random(seed)
    words = list(dict.fromkeys(_word(rng) for _ in range(30000)))
    topics = [words[i * 30:(i + 1) * 30] for i in range(300)]
    common = words[9000:29000]
    return topics, common


def projects() -> list[str]:
    return [f"proj-{i:02d}" for i in range(60)]


def project_weights() -> list[float]:
    return [1.0 / (i + 1) ** 0.8 for i in range(60)]


def build(root: str, n: int, seed: int = 1) -> Home:
    rng = random.Random(seed)
    home = Home(root)
    topics, common = vocabulary()
    names, weights = projects(), project_weights()
    common_weights = [1.0 / (i + 1) for i in range(len(common))]
    batches: dict[str, list[bytes]] = {label: [] for label in LABELS}
    for i in range(n):
        topic = topics[rng.randrange(len(topics))]
        words = rng.sample(topic, rng.randint(5, 9)) + rng.choices(common, common_weights, k=rng.randint(2, 4))
        rng.shuffle(words)
        summary = " ".join(words) + f" id{i % 5000}"
        if rng.random() < 0.3:
            summary += f" src/{words[0]}/{words[1]}.py"
        moment = NOW - timedelta(seconds=rng.randrange(0, 86400 * 120))
        label = rng.choices(LABELS, WEIGHTS)[0]
        batches[label].append(dumps_row({
            "event_id": f"evt-{i:012d}", "timestamp": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "type": "prompt", "provider": "claude", "session_id": f"s-{rng.randrange(3000)}",
            "project": rng.choices(names, weights)[0], "summary": summary, "salience": 0.5}))
    for label, lines in batches.items():
        append_lines(home.log(label), lines)
    return home


def queries(count: int, seed: int = 9) -> list[str]:
    """Queries of 1-4 words drawn from one topic each."""
    rng = random.Random(seed)
    topics, _ = vocabulary()
    return [" ".join(rng.sample(topics[rng.randrange(len(topics))], rng.randint(1, 4)))
            for _ in range(count)]
