"""Ask the genuine Codex what it thinks of the hooks: `codex app-server` speaks JSON-RPC on
stdio; `hooks/list` gives every hook's key, current hash and trust status, exactly what the
TUI's /hooks review shows (adapted from ../shared/realclients/codex/trust_hooks.py)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import time

from .harness import AGENT_PATH


def hooks_list(codex: str, home, cwd, timeout: float = 60, trust_keys: tuple = ()) -> list[dict]:
    """Every hook entry `codex app-server`'s `hooks/list` reports for `cwd` (HOME = `home`).
    With `trust_keys`, first trusts those hooks exactly as the TUI's /hooks review does
    (`config/batchWrite` of their current hashes), then lists again."""
    proc = subprocess.Popen([codex, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=cwd,
                            env={"PATH": AGENT_PATH, "HOME": str(home), "NO_COLOR": "1"})
    deadline = time.monotonic() + timeout
    buffer = b""

    def send(message: dict) -> None:
        proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()

    def answer(message_id: int) -> dict:
        nonlocal buffer
        while time.monotonic() < deadline:
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if message.get("id") == message_id and ("result" in message or "error" in message):
                    return message
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                buffer += chunk
        raise AssertionError(f"codex app-server gave no answer to request {message_id}")

    try:
        send({"method": "initialize", "id": 1, "params": {
            "clientInfo": {"name": "carto-realclient", "version": "0"}, "capabilities": {"experimentalApi": True}}})
        answer(1)
        send({"method": "initialized"})
        send({"method": "hooks/list", "id": 2, "params": {"cwds": [str(cwd)]}})
        listed = answer(2)
        if trust_keys:
            hashes = {e["key"]: e["currentHash"] for e in _entries(listed.get("result"))}
            state = {key: {"trusted_hash": hashes[key]} for key in trust_keys}
            send({"method": "config/batchWrite", "id": 3, "params": {"edits": [
                {"keyPath": "hooks.state", "mergeStrategy": "upsert", "value": state}]}})
            written = answer(3)
            if "error" in written:
                raise AssertionError(f"config/batchWrite failed: {written['error']}")
            send({"method": "hooks/list", "id": 4, "params": {"cwds": [str(cwd)]}})
            listed = answer(4)
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
    if "error" in listed:
        raise AssertionError(f"hooks/list failed: {listed['error']}")
    return _entries(listed["result"])


def _entries(result) -> list[dict]:
    entries: list[dict] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            if "currentHash" in node and node.get("key"):
                entries.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(result)
    return entries
