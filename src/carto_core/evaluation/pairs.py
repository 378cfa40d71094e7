"""Chats between two people, asked about in the third person: the kind of conversational
memory benchmarks such as LoCoMo measure ("When did Caroline go to the support group?"), and
that the dialogue sets (one person talking to the assistant, asking in the first person) do
not.

A set is a JSON file written by hand (`PAIR_SETS`, under `benchmarks/search/pair_sets/`):

    {"speaker_a": "Adaeze", "speaker_b": "Tomasz",
     "sessions": [{"date_time": "2:05 pm on 14 March, 2025",
                   "turns": [{"speaker": "Adaeze", "dia_id": "D1:1", "text": "..."}, ...]}, ...],
     "qa": [{"question": "...", "answer": "...", "evidence": ["D3:7"],
             "category": "single-hop|multi-hop|temporal|open-domain|adversarial"}, ...]}

`pair_home` writes one home: background coding events, then every turn as one row of the
turns log, "Speaker: text" (how a chat export names who spoke; `bare=True` writes the text
alone), each session at its own date; and the cases (`cases.jsonl`), the adversarial
questions (nothing in the chat answers them) apart in `unanswerable.jsonl`.
"""

from __future__ import annotations

import json
import random
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

from carto_core.evaluation.chatrows import append_in_time_order, turn_row

#: The sets' categories as the dialogue sets' buckets name them.
BUCKETS = {"single-hop": "single", "multi-hop": "multi-hop", "temporal": "temporal",
           "open-domain": "open"}
#: The hand-written sets (file stems under `benchmarks/search/pair_sets/`); a set whose file
#: says `"chat": "<stem>"` asks its own questions of that set's chat.
PAIR_SETS = ("pair-1", "pair-2", "pair-3", "pair-4", "pair-5", "pair-6", "pair-7", "pair-8", "pair-9", "pair-10",
             "pair-11", "pair-12", "pair-13", "pair-14", "pair-15", "pair-16",
             "pair-17", "pair-18", "pair-19", "pair-20", "pair-21", "pair-22",
             "pair-2d")
#: Background coding events under each chat.
BACKGROUND = 4000
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %B %Y", "%H:%M on %d %B, %Y")


def parse_date(text: str) -> datetime:
    """A session's `date_time` ("2:05 pm on 14 March, 2025"), UTC."""
    for form in _DATE_FORMATS:
        try:
            return datetime.strptime(text.strip(), form).replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    raise ValueError(f"a session date carto cannot read: {text!r}")


def evidence_ids(question: dict) -> list[str]:
    """The question's evidence turn ids (`D3:7`), split where a list was written as one."""
    return [part for item in question.get("evidence") or []
            for part in re.split(r"[;,\s]+", str(item)) if part]


def read_chat(folder: Path | str, name: str) -> dict:
    """The set `name` from `folder`, its chat read from the set it names, if any."""
    folder = Path(folder)
    data = json.loads((folder / f"{name}.json").read_text("utf-8"))
    if "chat" in data:
        chat = json.loads((folder / f"{data['chat']}.json").read_text("utf-8"))
        data = {**chat, "qa": data["qa"]}
    return data


def pair_home(root: Path | str, chat: dict, *, now: datetime, seed: int = 1,
              bare: bool = False, background: int = BACKGROUND) -> Path:
    """The home of one chat under `root`; made once, reused when `cases.jsonl` exists. The
    chat's dates are kept (a chat that ends after `now` is moved to end two days before it)."""
    from carto_core.evaluation import agecurve
    from carto_core.evaluation.agecurve import Case
    from carto_core.evaluation.generate import generate_home

    root = Path(root)
    if (root / "cases.jsonl").exists():
        return root
    if background:
        generate_home(root, background, seed=30 + seed, now=now)
    else:
        root.mkdir(parents=True, exist_ok=True)
    starts = [parse_date(s["date_time"]) for s in chat["sessions"]]
    last = max(starts)
    shift = timedelta(0) if last < now - timedelta(days=1) else now - timedelta(days=2) - last
    rng = random.Random(seed)
    ids: dict[str, str] = {}
    rows = []
    for number, (session, start) in enumerate(zip(chat["sessions"], starts), 1):
        sid = f"{rng.getrandbits(32):08x}-pair-{number:04d}"
        moment = start + shift
        for position, turn in enumerate(session["turns"], 1):
            moment += timedelta(seconds=rng.randint(20, 240))
            event_id = f"turn-{sid}-{position}"
            ids[turn["dia_id"]] = event_id
            text = turn["text"] if bare else f"{turn['speaker']}: {turn['text']}"
            rows.append(turn_row(event_id, moment, text, sid, position))
    append_in_time_order(root, "turns", rows)
    cases, unanswerable = [], []
    for number, question in enumerate(chat["qa"], 1):
        evidence = evidence_ids(question)
        bucket = BUCKETS.get(question.get("category", ""))
        if bucket is None or not evidence:
            unanswerable.append({"id": f"unanswerable-{number:03d}",
                                 "query": question["question"]})
            continue
        cases.append(Case(f"conv-{bucket}-{number:03d}", "conversational", question["question"],
                          [ids[e] for e in evidence], 10, bucket))
    with open(root / "unanswerable.jsonl", "w", encoding="utf-8") as handle:
        for item in unanswerable:
            handle.write(json.dumps(item) + "\n")
    agecurve.write_cases(root / "cases.jsonl", cases)
    return root
