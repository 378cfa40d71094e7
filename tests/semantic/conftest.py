"""Shared builders for the semantic tests: a paraphrase corpus, a home with it, HTTP fakes."""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.logs import order_row
from carto_core.util.timeparse import format_timestamp

# Topics of a paraphrase set: a query says it with the first words, its target with the second,
# and the rest of the corpus uses both (that co-occurrence is what LSA learns from).
TOPICS = {
    "auth": (["login", "authentication", "credentials"], ["signin", "auth", "password"]),
    "db": (["database", "migration", "schema"], ["postgres", "alembic", "table"]),
    "perf": (["slow", "latency", "performance"], ["sluggish", "lag", "speed"]),
    "deploy": (["deploy", "release", "production"], ["ship", "rollout", "prod"]),
    "crash": (["crash", "exception", "traceback"], ["panic", "error", "stacktrace"]),
    "docs": (["docs", "documentation", "readme"], ["guide", "manual", "tutorial"]),
    "cache": (["cache", "memoize", "redis"], ["lru", "memo", "memcached"]),  # not "caching": it stems to "cache"
    "billing": (["payment", "invoice", "billing"], ["checkout", "charge", "stripe"]),
}
FILLER = ["fix", "update", "module", "handler", "config", "check", "service", "worker"]
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)


def paraphrase_rows(seed: int = 7, background: int = 10):
    """(prompt rows, [(query, target_event_id)]): per topic `background` documents mixing both
    vocabularies, one target using only the second, one query using only the first."""
    rng = random.Random(seed)
    rows, cases = [], []
    minute = 0
    for topic, (said, meant) in TOPICS.items():
        for n in range(background):
            words = rng.sample(said, 2) + rng.sample(meant, 2) + rng.sample(FILLER, 2)
            rng.shuffle(words)
            minute += 1
            rows.append(_prompt(f"evt-{topic}bg{n:03d}", " ".join(words), topic, minute))
        minute += 1
        target = f"evt-{topic}target"
        rows.append(_prompt(target, " ".join(meant + rng.sample(FILLER, 1)), topic, minute))
        cases.append((" ".join(said[:2]), target))
    return rows, cases


def _prompt(event_id: str, text: str, topic: str, minute: int) -> dict:
    project = "alpha" if topic in ("auth", "db", "perf", "deploy") else "beta"
    return order_row("prompts", {
        "event_id": event_id, "timestamp": format_timestamp(NOW - timedelta(minutes=minute)),
        "type": "prompt", "provider": "claude", "summary": text, "project": project,
        "cwd": f"/work/{project}", "session_id": "s-" + topic, "salience": 0.6})


@pytest.fixture
def paraphrase_home(tmp_path, monkeypatch):
    """A home holding the paraphrase corpus, LSA at 8 dimensions (one per topic: a rank far
    below the corpus' so that LSA generalises across the two vocabularies)."""
    home = Home(tmp_path / "home")
    rows, cases = paraphrase_rows()
    append_rows(home.log("prompts"), rows)
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    monkeypatch.setenv("CARTO_LSA_DIMS", "8")
    # These tests are about the fitted LSA model and an ungated semantic ladder: the lsa
    # embedder and upstream's rrf (the default rrf-prior leaves the semantic ladder out when
    # documents hold every query term, as the background rows here do; docs/ranking.md).
    monkeypatch.setenv("CARTO_EMBEDDER", "lsa")
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "carto" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[search]\nfusion = "rrf"\ndecay = "gated-exp"\n', "utf-8")
    return home, rows, cases


# --------------------------------------------------------------------------- HTTP fakes


class FakeEmbeddingServer:
    """A local embedding server on 127.0.0.1: `mode` = "ok" (deterministic vectors),
    "hang" (accepts, never answers), "error" (HTTP 500), "garbage" (200, not JSON)."""

    def __init__(self, mode: str = "ok", dim: int = 16, flavour: str = "openai"):
        self.mode, self.dim, self.flavour = mode, dim, flavour
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.release = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                if server.mode == "hang":
                    server.release.wait(10)
                    return
                if server.mode == "error":
                    self.send_response(500)
                    self.end_headers()
                    self.wfile.write(b"model not loaded")
                    return
                if server.mode == "garbage":
                    payload = b"<html>not json</html>"
                else:
                    vectors = [server.vector(text) for text in body["input"]]
                    if server.flavour == "ollama":
                        payload = json.dumps({"model": body["model"], "embeddings": vectors}).encode()
                    else:
                        payload = json.dumps({"data": [
                            {"index": i, "embedding": v} for i, v in reversed(list(enumerate(vectors)))
                        ]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def vector(self, text: str) -> list[float]:
        # A bag of hashed words: texts sharing words point the same way.
        out = [0.0] * self.dim
        for word in text.lower().split():
            out[sum(word.encode()) % self.dim] += 1.0
        return out

    @property
    def url(self) -> str:
        path = "/api/embed" if self.flavour == "ollama" else "/v1/embeddings"
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def embedding_server():
    servers = []

    def start(mode="ok", **kwargs):
        server = FakeEmbeddingServer(mode, **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(predicate, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()
