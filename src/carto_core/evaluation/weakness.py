"""Sets for recall's known weaknesses, one generator per weakness, each over several packs of
words (`weakness_packs`) and reproducible by seed:

- `context`: dialogues between two people, one utterance a row; one asks about a topic
  ("How was your first pottery class?") and the other answers without naming it ("Messy and
  relaxing. My bowl came out lopsided"). The question asks for the answer and names the topic:
  the asking turn shares its words, the answer (the evidence) none.
- `multi`: questions whose answer is spread over two to four turns told in different sessions
  ("What instruments do I play?": the cello, the bass, the ukulele), among turns that share a
  common word of the question ("The kids play outside until dark").
- `recency`: short two-word queries ("deploy staging") over coding work whose newest event
  holding both words is older than many events holding one of them ("deploy api", "staging
  config"); the truth is the newest event holding both.

Every home also holds generated coding work (`generate.generate_home`) under the pack's rows.
The packs' held-out members (`weakness_packs.HELD_OUT`) are the check nobody tunes on.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

from carto_core.evaluation.chatrows import append_in_time_order, turn_row
from carto_core.evaluation.weakness_packs import CONTEXT, HELD_OUT, MULTI, RECENCY
from carto_core.logio.logs import order_row
from carto_core.util.timeparse import format_timestamp

PACKS = {**{k: "context" for k in CONTEXT}, **{k: "multi" for k in MULTI},
         **{k: "recency" for k in RECENCY}}
#: Background coding events under each kind of pack.
BACKGROUND = {"context": 1500, "multi": 1500, "recency": 1500}


def _sid(rng: random.Random, tag: str, n: int) -> str:
    return f"{rng.getrandbits(32):08x}-{tag}-{n:04d}"


def _turn_rows(rng, sessions: list[tuple[datetime, list[str]]], marks: dict, tag: str,
               project: str) -> tuple[list[dict], dict[str, str]]:
    """Rows of sessions given as (start, utterances); `marks` maps (session, position) to an
    evidence key; returns the rows and key -> event id."""
    rows, ids = [], {}
    for s_index, (start, texts) in enumerate(sessions):
        sid = _sid(rng, tag, s_index)
        moment = start
        for position, text in enumerate(texts):
            moment = moment + timedelta(seconds=rng.randint(15, 400))
            eid = f"turn-{sid}-{position + 1}"
            key = marks.get((s_index, position))
            if key is not None:
                ids[key] = eid
            rows.append(turn_row(eid, moment, text, sid, position + 1, project))
    return rows, ids


def _dialogue(root: Path, pack: str, seed: int, now: datetime) -> list:
    """`context` and `multi` packs: sessions of chit-chat with the pack's lines placed in them."""
    from carto_core.evaluation.agecurve import Case

    rng = random.Random(f"{pack}-{seed}")
    kind = PACKS[pack]
    spec = CONTEXT[pack] if kind == "context" else MULTI[pack]
    n_sessions = rng.randint(50, 80)
    days = rng.choice((120, 240, 365))
    starts = sorted(now - timedelta(seconds=rng.uniform(2 * 86400, days * 86400))
                    for _ in range(n_sessions))
    if kind == "context":
        a, b = spec["speakers"]

        def say(who: str, text: str) -> str:
            return f"{who}: {text}" if spec["prefix"] else text
    else:
        prefix = spec["prefix"]

        def say(who: str, text: str) -> str:
            return f"{prefix}{text}" if who == "me" else text

    replies = ["Ha, fair.", "Oh nice!", "Really? Tell me more.", "That's good to hear.",
               "Oh no.", "Makes sense.", "Wow.", "Glad it worked out."]
    sessions: list[list[tuple[str, str | None]]] = []
    for _ in range(n_sessions):
        texts: list[tuple[str, str | None]] = []
        for _ in range(rng.randint(1, 4)):
            if kind == "context":
                first, second = rng.choice(spec["chat"])
                texts += [(say(a, first), None), (say(b, second), None)]
            else:
                texts += [(say("me", rng.choice(_MULTI_CHAT)), None),
                          (rng.choice(replies), None)]
        sessions.append(texts)

    def place(lines: list[tuple[str, str | None]]) -> None:
        texts = rng.choice(sessions)
        at = rng.randint(0, len(texts) // 2) * 2
        texts[at:at] = lines

    pending = []
    if kind == "context":
        for mention in spec["mentions"]:
            place([(say(a, mention), None), (say(b, rng.choice(replies)), None)])
        for n, (ask, answer, question) in enumerate(spec["items"], 1):
            key = f"{pack}-{n}"
            place([(say(a, ask), None), (say(b, answer), key)])
            pending.append((f"{pack}-{n:03d}", "context", [key], question))
    else:
        for n, (question, evidence, distractors) in enumerate(spec["items"], 1):
            keys = []
            chosen = rng.sample(evidence, rng.randint(2, len(evidence)))
            for i, line in enumerate(chosen):
                key = f"{pack}-{n}-{i}"
                keys.append(key)
                place([(say("me", line), key), (rng.choice(replies), None)])
            for line in distractors:
                for _ in range(rng.randint(1, 2)):
                    place([(say("me", line), None), (rng.choice(replies), None)])
            pending.append((f"{pack}-{n:03d}", "multi", keys, question))
    marks = {(s, p): key for s, texts in enumerate(sessions) for p, (_, key) in enumerate(texts)
             if key is not None}
    rows, ids = _turn_rows(rng, list(zip(starts, [[t for t, _ in texts] for texts in sessions])),
                           marks, pack, "notes")
    append_in_time_order(root, "turns", rows)
    return [Case(case_id, "conversational", question, [ids[k] for k in keys], 10, category)
            for case_id, category, keys, question in pending]


_MULTI_CHAT = ["Quick question about my calendar.", "Can you check this email for typos?",
               "Remind me to buy milk.", "What's a synonym for happy?",
               "How many grams in an ounce?", "Draft a thank-you note for me.",
               "Any tips for falling asleep faster?", "Summarise this for me please."]

_BASH = ("Ran: make {a}-{b} {c}", "Ran: ./scripts/{a}.sh --target {b} --{c}",
         "Ran: just {a} {b}", "Ran: kubectl {a} {b} -n {c}")
_PROMPT = ("please {a} the {b} {c} again", "can you {a} {b} for the {c}",
           "{a} {b} failed on {c}, look into it", "let's {a} {b} before the {c} review")
_TURN = ("I'll {a} the {b} now and check the {c} afterwards.",
         "Done: {a} of {b} finished, {c} untouched.",
         "The {c} step passed, so I went ahead to {a} {b}.")
_ONE = ("Ran: make {w}-{c}", "Ran: ./scripts/{c}.sh --{w}", "check the {w} {c} output",
        "the {c} {w} looks wrong, can you look", "Updated the {w} notes for {c}.",
        "I looked at the {c} and the {w} settings; nothing to change.")


def _recency(root: Path, pack: str, seed: int, now: datetime) -> list:
    from carto_core.evaluation.agecurve import Case

    spec = RECENCY[pack]
    rng = random.Random(f"{spec.get('draw', pack)}-{seed}")
    context = spec["context"]
    lo, hi = spec["ages_h"]
    project = "platform"
    rows: dict[str, list[dict]] = {"tool-use": [], "prompts": [], "turns": [], "changelog": []}
    n_id = [0]

    def event(text_kind: str, text: str, at: datetime) -> str:
        n_id[0] += 1
        eid = f"evt-{pack}-{seed}-{n_id[0]:05d}"
        ts = format_timestamp(at)
        sid = f"{rng.getrandbits(32):08x}-rec"
        common = {"event_id": eid, "timestamp": ts, "provider": "claude", "project": project,
                  "cwd": f"/work/{project}"}
        if text_kind == "bash":
            rows["tool-use"].append(order_row("tool-use", {
                **common, "type": "tool_bash", "tool": "Bash", "summary": text, "session": sid,
                "diff_shape": None, "salience": 0.2}, keep_none=frozenset({"diff_shape"})))
            rows["changelog"].append(order_row("changelog", {
                **common, "type": "tool_bash", "session_id": sid, "summary": text,
                "diff_shape": None, "related_ids": [], "salience": 0.2},
                keep_none=frozenset({"diff_shape"})))
        elif text_kind == "prompt":
            rows["prompts"].append(order_row("prompts", {
                "event_id": eid, "timestamp": ts, "type": "prompt", "provider": "claude",
                "summary": text, "project": project, "cwd": f"/work/{project}",
                "session_id": sid, "salience": 0.6}))
        else:
            rows["turns"].append(order_row("turns", {
                "event_id": eid, "timestamp": ts, "project": project, "type": "transcript",
                "provider": "claude", "summary": text, "session": sid, "turn_idx": 1}))
        return eid

    def kinds():
        return rng.choice(("bash", "prompt", "turn"))

    pending = []
    for n, (a, b) in enumerate(spec["pairs"], 1):
        age = rng.uniform(lo, hi)
        truth_at = now - timedelta(hours=age)
        full_kind = kinds()
        template = {"bash": _BASH, "prompt": _PROMPT, "turn": _TURN}[full_kind]
        truth = event(full_kind, rng.choice(template).format(a=a, b=b, c=rng.choice(context)),
                      truth_at)
        for _ in range(spec["full"] - 1):  # older events holding both
            k = kinds()
            at = truth_at - timedelta(hours=rng.uniform(6, 24 * 90))
            event(k, rng.choice({"bash": _BASH, "prompt": _PROMPT, "turn": _TURN}[k]).format(
                a=a, b=b, c=rng.choice(context)), at)
        filler = rng.randint(spec["filler"] // 2, spec["filler"])
        for _ in range(filler):  # newer events holding one of the two words
            word = rng.choice((a, b))
            at = truth_at + timedelta(hours=rng.uniform(0.05, max(0.1, age - 0.05)))
            event(kinds(), rng.choice(_ONE).format(w=word, c=rng.choice(context)), at)
        for _ in range(filler // 2):  # older ones too
            word = rng.choice((a, b))
            at = truth_at - timedelta(hours=rng.uniform(1, 24 * 120))
            event(kinds(), rng.choice(_ONE).format(w=word, c=rng.choice(context)), at)
        query = rng.choice(spec["forms"]).format(a=a, b=b)
        pending.append((f"{pack}-{n:03d}", query, truth))
    for label, items in rows.items():
        append_in_time_order(root, label, items)
    return [Case(case_id, "recency", query, [truth], 10, "recency")
            for case_id, query, truth in pending]


def weakness_home(root: Path | str, *, pack: str, seed: int, now: datetime) -> Path:
    """The home of one pack and seed under `root`, with its cases in `cases.jsonl`; made once,
    reused when `cases.jsonl` exists."""
    from carto_core.evaluation import agecurve
    from carto_core.evaluation.generate import generate_home

    root = Path(root)
    if not (root / "cases.jsonl").exists():
        kind = PACKS[pack]
        generate_home(root, BACKGROUND[kind], seed=100 + seed, now=now)
        cases = (_recency if kind == "recency" else _dialogue)(root, pack, seed, now)
        agecurve.write_cases(root / "cases.jsonl", cases)
    return root


__all__ = ["HELD_OUT", "PACKS", "weakness_home"]
