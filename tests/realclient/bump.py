"""What a client version sends and writes, and what changed between two versions.

    python -m tests.realclient.bump                          # the pinned versions' shapes
    python -m tests.realclient.bump --claude 2.1.400         # pinned vs 2.1.400: a summary diff
    python -m tests.realclient.bump --codex 0.170.0 --write  # ... and pin 0.170.0 in pins.json
    python -m tests.realclient.bump --json                   # one JSON document

For each version it installs the client into the cache beside the pinned one (install_clients.py),
runs the tier's scripted sessions (Claude: CLAUDE_EVERY_EVENT and a /compact resume; Codex:
CODEX_MAIN with hook trust bypassed) with a tap on every event, and reduces what the client did
to shapes, never content: the hook events it fired, the payload keys per event (and per tool for
tool events, `tool_response` keys included), the transcript line types (Claude: `type`, plus
`attachment.type`; Codex: `type/payload.type`), and for Codex the hook events `hooks/list` knows.
With two versions it prints what was added and removed in each. Run from the checkout root with
the venv active (carto's own hooks are installed as a user would). Nothing leaves the machine;
the sessions' files stay in a temporary folder.

After a bump: run the tier (`python -m pytest tests/realclient`), read the diff for new events
(install them in the shipped hooks files), new payload keys (capture may read them) and new line
types (the readers must know them: `no unknown line types` is a test), then update the shapes in
docs/providers/claude.md and codex.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from . import clients
from .harness import resume_claude_session, run_claude_session, run_codex_session
from .scripts import CLAUDE_EVERY_EVENT, CODEX_MAIN

HERE = Path(__file__).resolve().parent


def _keys(value) -> list[str]:
    return sorted(value) if isinstance(value, dict) else [type(value).__name__]


def payload_shapes(payloads: list[dict]) -> dict:
    """event -> sorted top-level keys; `event:tool` -> keys of tool_input and tool_response."""
    shapes: dict[str, set] = defaultdict(set)
    for payload in payloads:
        event = payload.get("hook_event_name", "?")
        shapes[event].update(payload)
        tool = payload.get("tool_name")
        if tool:
            shapes[f"{event}:{tool} tool_input"].update(_keys(payload.get("tool_input")))
            if "tool_response" in payload:
                shapes[f"{event}:{tool} tool_response"].update(_keys(payload["tool_response"]))
    return {key: sorted(value) for key, value in sorted(shapes.items())}


def claude_line_types(lines: list[dict]) -> list[str]:
    found = set()
    for line in lines:
        kind = line.get("type", "?")
        found.add(kind)
        attachment = line.get("attachment")
        if kind == "attachment" and isinstance(attachment, dict):
            found.add(f"attachment/{attachment.get('type', '?')}")
    return sorted(found)


def codex_record_types(lines: list[dict]) -> list[str]:
    found = set()
    for line in lines:
        payload = line.get("payload") if isinstance(line.get("payload"), dict) else {}
        kind = payload.get("type")
        found.add(line.get("type", "?") + (f"/{kind}" if isinstance(kind, str) else ""))
    return sorted(found)


def claude_shapes(binary: str, work: Path) -> dict:
    run = run_claude_session(work / "claude", CLAUDE_EVERY_EVENT, client=binary)
    resumed = resume_claude_session(run, "/compact")
    payloads = resumed.tapped()
    return {"version": _version(binary), "exit": [run.rc, resumed.rc],
            "events": dict(sorted(resumed.events_fired().items())),
            "payload_keys": payload_shapes(payloads),
            "line_types": claude_line_types(run.transcript_lines())}


def codex_shapes(binary: str, work: Path) -> dict:
    from .appserver import hooks_list

    run = run_codex_session(work / "codex", CODEX_MAIN, client=binary)
    listed = hooks_list(binary, run.home, run.repo)
    return {"version": _version(binary), "exit": [run.rc],
            "events": dict(sorted(run.events_fired().items())),
            "payload_keys": payload_shapes(run.tapped()),
            "line_types": codex_record_types(run.transcript_lines()),
            "hook_events_listed": sorted({e.get("eventName", "?") for e in listed})}


def _version(binary: str) -> str:
    done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60)
    return done.stdout.strip()


SHAPES = {"claude": claude_shapes, "codex": codex_shapes}


def diff(old: dict, new: dict) -> dict:
    """What `new` adds to and removes from `old`, per section (lists and mapping keys alike)."""
    out = {}
    for section in ("events", "line_types", "hook_events_listed"):
        a, b = set(old.get(section) or ()), set(new.get(section) or ())
        if a != b:
            out[section] = {"added": sorted(b - a), "removed": sorted(a - b)}
    keys_old, keys_new = old.get("payload_keys", {}), new.get("payload_keys", {})
    changed = {}
    for key in sorted(set(keys_old) | set(keys_new)):
        a, b = set(keys_old.get(key, ())), set(keys_new.get(key, ()))
        if a != b:
            changed[key] = {"added": sorted(b - a), "removed": sorted(a - b)}
    if changed:
        out["payload_keys"] = changed
    return out


def _print_text(result: dict) -> None:
    for name, item in result.items():
        print(f"== {name} {item['pinned']['version']}")
        if "against" not in item:
            print(json.dumps(item["pinned"], indent=1))
            continue
        print(f"   vs {item['against']['version']}")
        if not item["diff"]:
            print("   no change in hook events, payload keys or line types")
        for section, change in item["diff"].items():
            if section == "payload_keys":
                for key, delta in change.items():
                    print(f"   payload {key}: +{delta['added']} -{delta['removed']}")
            else:
                print(f"   {section}: +{change['added']} -{change['removed']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in clients.CLIENTS:
        parser.add_argument(f"--{name}", metavar="VERSION", help=f"compare the pinned {name} with VERSION")
    parser.add_argument("--write", action="store_true", help="pin the compared versions in pins.json")
    parser.add_argument("--json", dest="as_json", action="store_true", help="one JSON document")
    args = parser.parse_args(argv)
    pins = clients.pins()
    asked = {name: getattr(args, name) for name in clients.CLIENTS if getattr(args, name)}
    todo = asked or {name: None for name in clients.CLIENTS}
    installer = [sys.executable, str(HERE / "install_clients.py")]
    result = {}
    with tempfile.TemporaryDirectory(prefix="carto-bump-") as scratch:
        work = Path(scratch)
        for name, version in todo.items():
            subprocess.run([*installer, name], check=True, stdout=subprocess.DEVNULL)
            item = {"pinned": SHAPES[name](str(clients.binary(name, pins[name]["version"])), work / "pinned")}
            if version:
                subprocess.run([*installer, name, "--version", f"{name}={version}"], check=True,
                               stdout=subprocess.DEVNULL)
                item["against"] = SHAPES[name](str(clients.binary(name, version)), work / version)
                item["diff"] = diff(item["pinned"], item["against"])
            result[name] = item
    if args.write and asked:
        for name, version in asked.items():
            pins[name]["version"] = version
        clients.PINS_FILE.write_text(json.dumps(pins, indent=2) + "\n")
    if args.as_json:
        print(json.dumps(result, indent=1))
    else:
        _print_text(result)
        if args.write and asked:
            print(f"pinned in {clients.PINS_FILE}: " + ", ".join(f"{n} {v}" for n, v in asked.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
