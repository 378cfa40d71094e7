"""A seeded, messy corpus for facts tests: every log, duplicates across logs, the three
spellings of absence, undated rows, offsets and epoch timestamps."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home

NOW = datetime(2026, 9, 8, 15, 30, tzinfo=timezone.utc)
ABSENT = (None, "", "unknown", "  Unknown ")


def _stamp(rng: random.Random, moment: datetime):
    kind = rng.random()
    if kind < 0.05:
        return None
    if kind < 0.08:
        return "not a time"
    if kind < 0.14:
        return int(moment.timestamp() * 1000)  # epoch milliseconds
    if kind < 0.18:
        return moment.astimezone(timezone(timedelta(hours=-7))).isoformat()
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def build_messy_home(root, seed: int = 7, n: int = 400) -> Home:
    rng = random.Random(seed)
    home = Home(root)
    projects = ["webshop", "infra-tools", "carto", "Carto-Docs"] + list(ABSENT)
    types = ["tool_bash", "tool_file_edit", "git_commit", "git_push", "research_fetch"]
    rows: dict[str, list[dict]] = {"changelog": [], "tool-use": [], "milestones": [],
                                   "research": [], "prompts": [], "turns": []}
    for i in range(n):
        moment = NOW - timedelta(minutes=rng.randrange(0, 60 * 24 * 20))
        event_id = f"evt-{seed:02d}{i:010d}" if rng.random() > 0.03 else rng.choice(ABSENT)
        project = rng.choice(projects)
        session = rng.choice(["s-1", "s-2", "s-3", "s-4"] + list(ABSENT))
        provider = rng.choice(["claude", "codex", "hermes"] + list(ABSENT))
        ts = _stamp(rng, moment)
        kind = rng.random()
        if kind < 0.45:
            etype = rng.choice(types)
            row = {"event_id": event_id, "timestamp": ts, "type": etype, "provider": provider,
                   "session_id": session, "project": project,
                   "summary": f"Commit abcdef{i:04d}: change {i}" if etype == "git_commit" else f"did {i}"}
            rows["changelog"].append(row)
            if etype.startswith("tool_") and rng.random() < 0.7:
                # The domain copy under the same id (the fold keeps one event).
                rows["tool-use"].append({"event_id": event_id, "timestamp": ts, "type": etype,
                                         "provider": provider, "summary": row["summary"],
                                         "project": project, "session": session})
        elif kind < 0.6:
            milestone = rng.choice(["session_end_exit", "compaction_auto", "session_wrapup"])
            event = rng.choice(["SessionEnd", None, ""])
            rows["milestones"].append({"event_id": event_id, "timestamp": ts, "milestone": milestone,
                                       "provider": provider, "description": "m", "session_id": session,
                                       "project": project, "event": event})
        elif kind < 0.75:
            rows["research"].append({"event_id": event_id, "timestamp": ts, "type": "fetch",
                                     "url": "https://x.test/", "project": project, "session": session,
                                     "provider": provider})
        elif kind < 0.9:
            rows["prompts"].append({"event_id": event_id, "timestamp": ts, "type": "prompt",
                                    "provider": provider, "summary": "p", "project": project,
                                    "sessionId": session})
        else:
            rows["turns"].append({"event_id": event_id, "timestamp": ts, "project": project,
                                  "type": rng.choice(["transcript", None]), "provider": provider,
                                  "summary": "t", "session": session})
    for label, batch in rows.items():
        append_rows(home.log(label), batch)
    # Noise the reader must count and skip.
    with open(home.log("changelog"), "ab") as handle:
        handle.write(b"{not json\n")
    return home


@pytest.fixture
def messy_home(tmp_path):
    return build_messy_home(tmp_path / "home")
