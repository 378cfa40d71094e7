"""The source contract suite: a pytest plugin shipped in core for anyone writing a source.

Opt in from a test module (it is not loaded for every pytest run)::

    import pytest
    from carto_core.testing import SourceContract

    pytest_plugins = ["carto_core.testing"]

    class TestNotesContract(SourceContract):
        @pytest.fixture
        def source(self, tmp_path):
            ...  # a Source over good fixtures (files written into tmp_path, or a copied sample)
            return NotesSource({"roots": [str(tmp_path)]})

        @pytest.fixture
        def garbage_source(self, tmp_path):
            ...  # a Source over input that holds garbage (broken lines, bad bytes, bad rows)
            return NotesSource({"roots": [str(tmp_path / "garbage")]})

Every test of the class then checks the source against the contract that `carto ingest` and the
lenses rely on:

- the good fixtures yield rows (a suite over nothing proves nothing);
- event ids are non-empty strings, unique across every log the source writes (readers fold
  rows by event_id across the logs: of two rows sharing one, only one is ever found), and the
  same on a second read;
- every row's timestamp is in the form carto writes: UTC with `Z`, `YYYY-MM-DDTHH:MM:SSZ`
  (`carto_core.api.format_timestamp`; milliseconds allowed; docs/records.md);
- the text a lens shows (`summary`, else the fallback chain) is a single line, and every row is
  one line of compact JSON;
- rows go to a known log with that log's key order (`carto_core.api.order_row`); a `provider`
  field, when present, is the source's;
- every row's session key is its log's (`session_id` in the changelog, milestones and prompt
  history, `session` in the tool-use, research and turns logs; `carto_core.logio.logs.SESSION_KEY`);
- two reads of the same bytes give the same rows, every field included (a timestamp taken from
  the clock, a random id or a dict in set order fail: the second read waits for the clock's
  next second when a row holds anything that looks like the present time);
- re-reading an unchanged stream from the checkpoint it returned yields no row at all (a source
  that re-emits everything and leaves dedup to the runner fails), every stream that gave rows
  returns a checkpoint (unless the class sets `checkpoints = False`), the checkpoint is JSON, and a second `run_ingest` into the same home
  writes nothing; the first wrote every id, and each fetches back from the logs;
- garbage input does not raise: it is skipped and counted in `ReadBatch.skipped`; a row that
  carries U+FFFD (bytes that were not UTF-8, decoded with replacement) is counted too, under a
  key that says so (`invalid_utf8`; put undecodable bytes in the garbage fixtures);
- no network: every test runs with sockets guarded; an attempt to resolve a name or connect to
  anything but a Unix socket fails the test (even if the source swallowed the error).

Class attributes tune it: `min_rows` (default 1), `garbage_min_skipped` (default 1).
The fixtures the plugin provides can be used on their own: `carto_no_network` (the socket
guard, with `.attempts`) and `carto_contract_home` (an empty carto home in `tmp_path`).

`CaptureContract` does the same for a provider's live capture, the `carto.capture` entry point
that `carto hook PROVIDER EVENT` runs (docs/capture.md)::

    class TestNotesCapture(CaptureContract):
        provider = "notes"

        @pytest.fixture
        def payloads(self):
            return [("PostToolUse", {"session_id": "s1", "cwd": "/src/app", "text": "hello"})]

It checks that the installed entry point resolves to `handle(event_name, payload, home)`; that
the payloads give rows (at least `min_rows`) that pass the row rules above; that `carto hook`
writes them into a home; that hostile payloads (`HOSTILE_PAYLOADS`, plus a `hostile_payloads`
fixture of your own) and hostile stdin never raise; and that a real `carto hook` process for
each payload imports none of `HEAVY_MODULES` (click, pluggy, attrs, numpy, ...).

PYTEST_DONT_REWRITE: test modules import this before pytest reads their `pytest_plugins`, too
late for assertion rewriting; every assertion here carries its own message instead.
"""

from __future__ import annotations

import json
import re
import socket
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest

# The other kits' shared fixtures (a generated home, its engine and queries), loaded with this
# plugin: a test module opts in once, `pytest_plugins = ["carto_core.testing"]`.
from carto_core.kits.facts import carto_kit_home  # noqa: F401
from carto_core.kits.search import carto_kit_engine, carto_kit_queries  # noqa: F401
from carto_core.logio.home import Home
from carto_core.logio.jsonl import dumps_row
from carto_core.logio.logs import SEARCHED_LOGS, SESSION_KEY, SHAPES, order_row
from carto_core.logio.reader import iter_lines
from carto_core.model.events import TEXT_CHAIN, first_resolved
from carto_core.model.sources import Emit, ReadBatch, Source, Stream
from carto_core.util.timeparse import parse_timestamp


def shapes_of(log: str) -> tuple[str, ...]:
    """Shapes a row of `log` may follow: `log` itself and its variants in `carto_core.logio.logs`
    (`changelog-milestone`, `changelog-git`: the changelog holds several kinds of row)."""
    return tuple(shape for shape in SHAPES if shape == log or shape.startswith(log + "-"))


class NetworkAttempt(AssertionError):
    """Raised (and recorded) when code under the guard tries to use the network."""


class NetworkGuard:
    """Replaces name resolution and socket connects with a recorded refusal."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.attempts: list[str] = []
        guard = self

        def refuse(what: str):
            guard.attempts.append(what)
            raise NetworkAttempt(f"network use under the carto contract guard: {what}")

        real_connect = socket.socket.connect
        real_connect_ex = socket.socket.connect_ex

        def connect(sock, address):
            if getattr(socket, "AF_UNIX", None) is not None and sock.family == socket.AF_UNIX:
                return real_connect(sock, address)
            refuse(f"connect {address!r}")

        def connect_ex(sock, address):
            if getattr(socket, "AF_UNIX", None) is not None and sock.family == socket.AF_UNIX:
                return real_connect_ex(sock, address)
            refuse(f"connect_ex {address!r}")

        monkeypatch.setattr(socket.socket, "connect", connect)
        monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
        monkeypatch.setattr(socket, "getaddrinfo", lambda host, *a, **k: refuse(f"getaddrinfo {host!r}"))
        monkeypatch.setattr(socket, "gethostbyname", lambda host: refuse(f"gethostbyname {host!r}"))
        monkeypatch.setattr(socket, "create_connection",
                            lambda address, *a, **k: refuse(f"create_connection {address!r}"))


@pytest.fixture
def carto_no_network(monkeypatch) -> NetworkGuard:
    """Sockets guarded for the test: name lookups and non-Unix connects fail and are recorded."""
    return NetworkGuard(monkeypatch)


@pytest.fixture
def carto_contract_home(tmp_path) -> Home:
    """An empty carto home under tmp_path (not the one CARTO_HOME points at)."""
    root = tmp_path / "contract-home"
    root.mkdir()
    return Home(root)


@dataclass
class SourceRead:
    """Every stream of a source read once from the start."""

    reads: list[tuple[Stream, ReadBatch]] = field(default_factory=list)

    @property
    def emits(self) -> list[Emit]:
        return [emit for _, batch in self.reads for emit in batch.rows]

    @property
    def skipped(self) -> Counter:
        total: Counter = Counter()
        for _, batch in self.reads:
            total.update(batch.skipped)
        return total

    def ids(self) -> list[tuple[str, object]]:
        return [(emit.log, emit.row.get("event_id")) for emit in self.emits]


def read_all(source: Source) -> SourceRead:
    """Read every stream `source.discover()` lists, each from no checkpoint."""
    result = SourceRead()
    for stream in source.discover():
        result.reads.append((stream, source.read(stream, None)))
    return result


#: Every spelling of the session key a row may use; only its log's own is allowed.
SESSION_SPELLINGS = ("session_id", "session", "sessionId")


#: The form carto writes a timestamp in (docs/records.md, "Timestamps"): UTC with `Z`, to the
#: second (`format_timestamp`) or with the fraction a transcript gives (milliseconds).
TIMESTAMP_FORM = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z")
#: git's `%aI` (the author's own offset), which the git commit rows alone keep.
GIT_TIMESTAMP_FORM = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}")


def timestamp_problem(row: dict) -> str | None:
    """What is wrong with a row's timestamp (None: nothing): it must parse and be in the form
    carto writes, `YYYY-MM-DDTHH:MM:SSZ` (a commit row, `type` git_commit, may keep git's
    offset). An offset or an epoch number parses, but a reader that keeps or orders the stored
    text as it is (a decision's first and last time, a list ordered by it) sets it apart from
    the `Z` rows beside it."""
    value = row.get("timestamp")
    if parse_timestamp(value) is None:
        return f"timestamp {value!r} does not parse"
    if isinstance(value, str) and (TIMESTAMP_FORM.fullmatch(value) or (
            row.get("type") == "git_commit" and GIT_TIMESTAMP_FORM.fullmatch(value))):
        return None
    return (f"timestamp {value!r} is not in the form carto writes, UTC with Z: "
            "YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-11-22T09:12:30Z, milliseconds allowed "
            "(write it with carto_core.api.format_timestamp; docs/records.md)")


def row_problems(emit: Emit, source: Source | str) -> list[str]:
    """Everything wrong with one emitted row under the contract (empty when it is fine);
    `source` is the Source (or the provider name) whose `provider` rows must carry."""
    problems: list[str] = []
    row = emit.row
    where = f"{emit.log} row {row.get('event_id')!r}"
    if not isinstance(row, dict):
        return [f"{emit.log}: row is {type(row).__name__}, not a dict"]
    if emit.log not in SEARCHED_LOGS:
        problems.append(f"{where}: unknown log {emit.log!r}; accepted: {', '.join(SEARCHED_LOGS)}")
    event_id = row.get("event_id")
    if not isinstance(event_id, str) or not event_id.strip():
        problems.append(f"{where}: event_id must be a non-empty string")
    elif event_id != event_id.strip() or "\n" in event_id:
        problems.append(f"{where}: event_id has surrounding whitespace or a line break")
    stamp = timestamp_problem(row)
    if stamp:
        problems.append(f"{where}: {stamp}")
    for key in ("summary",):
        value = row.get(key)
        if isinstance(value, str) and ("\n" in value or "\r" in value):
            problems.append(f"{where}: {key} is not a single line")
    shown = first_resolved(row, TEXT_CHAIN)
    if isinstance(shown, str) and ("\n" in shown or "\r" in shown):
        problems.append(f"{where}: the text lenses show (summary chain) is not a single line")
    try:
        line = dumps_row(row)
    except (TypeError, ValueError) as exc:
        problems.append(f"{where}: not JSON-serialisable: {exc}")
    else:
        if line.count(b"\n") != 1:
            problems.append(f"{where}: does not encode to exactly one line")
    if shapes_of(emit.log):
        keys = list(row)
        orders = [list(order_row(shape, row, keep_none=frozenset(row))) for shape in shapes_of(emit.log)]
        if keys not in orders:
            problems.append(
                f"{where}: key order {keys} is not the {emit.log} order {orders[0]} "
                "(build rows with carto_core.api.order_row)"
            )
    own_key = SESSION_KEY.get(emit.log)
    for key in SESSION_SPELLINGS:
        if own_key and key != own_key and key in row:
            problems.append(f"{where}: the {emit.log} log keys sessions on {own_key!r}, "
                            f"not {key!r} (carto_core.logio.logs.SESSION_KEY)")
    expected = source if isinstance(source, str) else source.provider
    provider = row.get("provider")
    if provider is not None and provider != expected:
        problems.append(f"{where}: provider {provider!r} but the source says {expected!r}")
    return problems


def replaced_characters(value) -> int:
    """How many U+FFFD (the mark of bytes decoded with replacement) a row holds, keys included."""
    if isinstance(value, str):
        return value.count("\ufffd")
    if isinstance(value, dict):
        return sum(replaced_characters(k) + replaced_characters(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return sum(replaced_characters(v) for v in value)
    return 0


def _names_decoding(key: str) -> bool:
    """A skipped-count key that says bytes did not decode (`invalid_utf8`, `invalid_utf8_bytes`,
    `undecodable`, ...)."""
    key = key.lower().replace("-", "")
    return "utf8" in key or "decod" in key


def looks_like_now(value, now: float | None = None) -> bool:
    """Whether a row holds something a clock could have written: a date string of today
    (UTC, +-1 day) or a number of epoch seconds or milliseconds within two days of now."""
    now = time.time() if now is None else now
    days = {time.strftime("%Y-%m-%d", time.gmtime(now + shift)) for shift in (-86400, 0, 86400)}

    def walk(item) -> bool:
        if isinstance(item, bool):
            return False
        if isinstance(item, str):
            return any(day in item for day in days)
        if isinstance(item, (int, float)):
            return abs(item - now) < 2 * 86400 or abs(item / 1000.0 - now) < 2 * 86400
        if isinstance(item, dict):
            return any(walk(k) or walk(v) for k, v in item.items())
        if isinstance(item, (list, tuple)):
            return any(walk(v) for v in item)
        return False

    return walk(value)


def wait_for_the_next_second() -> None:
    """Sleep until the wall clock's second changes (a clock-stamped row then differs)."""
    time.sleep(1.0 - time.time() % 1.0 + 0.02)


class NetworkGuarded:
    """Every test of a contract class runs with sockets guarded and fails on any attempt."""

    @pytest.fixture(autouse=True)
    def _carto_network_guard(self, carto_no_network):
        yield
        assert not carto_no_network.attempts, f"network used: {carto_no_network.attempts}"


class SourceContract(NetworkGuarded):
    """Subclass in a test module, provide `source` and `garbage_source` fixtures (see module)."""

    #: The good fixtures must yield at least this many rows.
    min_rows: int = 1
    #: The garbage fixtures must be counted as at least this many skipped units.
    garbage_min_skipped: int = 1
    #: False for a source that keeps no checkpoint on purpose (every read is a full read and
    #: the runner's event-id dedup keeps re-runs idempotent, as carto-git does).
    checkpoints: bool = True

    @pytest.fixture
    def source(self):  # pragma: no cover - the subclass provides it
        pytest.fail("SourceContract needs a `source` fixture: a Source over good fixtures")

    @pytest.fixture
    def garbage_source(self):  # pragma: no cover - the subclass provides it
        pytest.fail("SourceContract needs a `garbage_source` fixture: a Source over garbage")

    def test_contract_fixtures_yield_rows(self, source):
        assert isinstance(source, Source)
        assert source.name and source.can_backfill(), "a contract source must implement read()"
        got = read_all(source)
        assert got.reads, "discover() listed no stream for the good fixtures"
        assert len(got.emits) >= self.min_rows, f"only {len(got.emits)} rows from the good fixtures"

    def test_contract_rows_follow_the_row_rules(self, source):
        problems = [p for emit in read_all(source).emits for p in row_problems(emit, source)]
        assert not problems, "\n".join(problems[:20])

    def test_contract_ids_unique_and_stable(self, source):
        first = read_all(source).ids()
        duplicates = [key for key, n in Counter(first).items() if n > 1]
        assert not duplicates, f"event ids repeated within a log: {duplicates[:10]}"
        logs_of: dict[object, list[str]] = {}
        for log, event_id in first:
            logs_of.setdefault(event_id, []).append(log)
        shared = {event_id: logs for event_id, logs in logs_of.items() if len(logs) > 1}
        assert not shared, (
            "event ids written into more than one log: "
            + "; ".join(f"{event_id!r} in {', '.join(logs)}" for event_id, logs in list(shared.items())[:10])
            + ". Readers fold rows by event_id across every log (docs/records.md, the fold rule): "
            "one row of each id is the event and the others are never found; give each row an "
            "id of its own (prefix it with what the row is)")
        second = read_all(source).ids()
        assert second == first, "a second read from scratch gave other event ids (or another order)"

    def test_contract_same_bytes_give_the_same_rows(self, source):
        first = read_all(source)
        if looks_like_now([emit.row for emit in first.emits]):
            wait_for_the_next_second()  # a clock-stamped field must then differ
        second = read_all(source)
        rows = [(e.log, dumps_row(e.row)) for e in first.emits]
        again = [(e.log, dumps_row(e.row)) for e in second.emits]
        changed = [f"{log}: {a.decode()[:160]} != {b.decode()[:160]}"
                   for (log, a), (_, b) in zip(rows, again) if a != b]
        assert not changed and len(rows) == len(again), (
            "a second read of the same bytes gave other rows (a field from the clock, a random "
            "value, an unordered collection?):\n" + "\n".join(changed[:5])
            + (f"\n{len(rows)} rows, then {len(again)}" if len(rows) != len(again) else ""))

    def test_contract_checkpointed_reread_adds_nothing(self, source):
        for stream, batch in read_all(source).reads:
            checkpoint = batch.checkpoint
            if checkpoint is None:
                assert not batch.rows or not self.checkpoints, (
                    f"{stream.key}: gave {len(batch.rows)} rows but no checkpoint, so every run "
                    "reads it all again (set `checkpoints = False` if that is the design)")
                continue
            checkpoint = json.loads(json.dumps(checkpoint))  # must survive the checkpoint file
            again = source.read(stream, checkpoint)
            ids = [emit.row.get("event_id") for emit in again.rows]
            assert not again.rows, (
                f"{stream.key}: re-read from its own checkpoint, unchanged, yielded {len(ids)} "
                f"rows ({ids[:5]}); a read must resume where the checkpoint says")

    def test_contract_ingest_twice_writes_once(self, source, carto_contract_home):
        from carto_core.builtins.writers import JsonlWriter
        from carto_core.ingest.runner import run_ingest

        expected: dict[str, set] = {}
        for log, event_id in read_all(source).ids():
            expected.setdefault(log, set()).add(event_id)
        first = run_ingest(source, carto_contract_home, writers=[JsonlWriter()])
        assert not first.errors, first.errors
        assert first.rows_written == sum(len(ids) for ids in expected.values())
        for log, ids in expected.items():
            stored = [line.row["event_id"] for line in iter_lines(carto_contract_home.log(log))]
            assert sorted(stored) == sorted(ids), f"{log}: the ids written are not the ids read"
        second = run_ingest(source, carto_contract_home, writers=[JsonlWriter()])
        assert not second.errors, second.errors
        assert second.rows_written == 0, f"a second ingest wrote {second.written}"

    def test_contract_garbage_is_skipped_and_counted(self, garbage_source):
        got = read_all(garbage_source)  # must not raise
        assert got.reads, "discover() listed no stream for the garbage fixtures"
        skipped = sum(got.skipped.values())
        assert skipped >= self.garbage_min_skipped, (
            f"garbage input was not counted in ReadBatch.skipped (got {dict(got.skipped)})"
        )
        problems = [p for emit in got.emits for p in row_problems(emit, garbage_source)]
        assert not problems, "\n".join(problems[:20])

    def test_contract_undecodable_bytes_are_counted(self, garbage_source):
        for stream, batch in read_all(garbage_source).reads:
            replaced = sum(replaced_characters(emit.row) for emit in batch.rows)
            if replaced:
                counted = sum(n for key, n in batch.skipped.items() if _names_decoding(key))
                assert counted >= 1, (
                    f"{stream.key}: {replaced} U+FFFD in the rows (bytes that were not UTF-8, "
                    "decoded with replacement) but ReadBatch.skipped counts no invalid_utf8 "
                    f"(got {dict(batch.skipped)})")

    def test_contract_reads_without_network(self, source, carto_no_network):
        read_all(source)
        assert carto_no_network.attempts == []


# --------------------------------------------------------------------------- live capture

#: Modules a `carto hook` process must not import (the hook path is stdlib-only: DESIGN 7).
HEAVY_MODULES = ("click", "pluggy", "attrs", "cattrs", "orjson", "numpy", "scipy", "sklearn",
                 "qdrant_client", "httpx", "requests")

#: Payloads no capture may raise on: wrong types, missing keys, odd text, deep nesting.
HOSTILE_PAYLOADS: tuple[dict, ...] = (
    {},
    {"session_id": 5, "cwd": ["x"], "text": {"a": 1}},
    {"session_id": None, "cwd": None, "transcript_path": 7, "tool_name": None},
    {"session_id": "s-hostile", "cwd": "relative/dir", "tool_name": 12, "tool_input": "make"},
    {"session_id": "s-hostile", "cwd": "/nonexistent/dir", "tool_name": "Bash",
     "tool_input": {"command": ["git", "commit", 3]}, "tool_response": [None]},
    {"session_id": "s-hostile\nsecond line", "cwd": "/tmp\x00", "text": "line one\nline two\r"},
    {"session_id": "s-hostile", "cwd": "/", "text": "x" * 200_000},
    {"session_id": "s-hostile", "cwd": "/", "text": "\ufffd bytes \u202e that were odd \U0001f600"},
    {"session_id": "s-hostile", "cwd": "/", "text": [[[[[[[[[[["deep"]]]]]]]]]]]},
)
#: Stdin no `carto hook` may raise on (the dispatcher logs each as a problem).
HOSTILE_STDIN: tuple[bytes, ...] = (b"", b"   ", b"{not json", b"[1, 2]", b'"text"', b"\xff\xfe{}",
                                    b'{"session_id": "\\ud83d", "text": "\\udc00"}')

_HOOK_PROCESS = """
import io, json, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[3].encode("utf-8")))
from carto_core.entry import main
main(["hook", sys.argv[1], sys.argv[2]])
heavy = [name for name in json.loads(sys.argv[4]) if name in sys.modules]
sys.stdout.write("\\n" + json.dumps({"heavy": heavy}) + "\\n")
"""


class CaptureContract(NetworkGuarded):
    """Subclass in a test module, set `provider` and give a `payloads` fixture (see module)."""

    #: The name `carto hook PROVIDER EVENT` takes (the `carto.capture` entry point's name).
    provider: str = ""
    #: The payloads together must give at least this many rows.
    min_rows: int = 1

    @pytest.fixture(autouse=True)
    def _carto_no_children(self, monkeypatch):
        monkeypatch.setenv("CARTO_CATCHUP", "0")  # no SessionStart child process under test
        monkeypatch.setenv("CARTO_KEEPUP", "0")  # nor a semantic keep-up from Stop

    @pytest.fixture
    def payloads(self):  # pragma: no cover - the subclass provides it
        pytest.fail("CaptureContract needs a `payloads` fixture: [(event name, payload), ...]")

    @pytest.fixture
    def hostile_payloads(self) -> list:
        """Extra (event name, payload) pairs of your own that must not raise."""
        return []

    def handler(self):
        from carto_core.capture.hookpath import load_handler
        from carto_core.plugin.table import capture_target

        assert self.provider, "CaptureContract needs `provider`, the name `carto hook` takes"
        target, why_not = capture_target(self.provider)
        assert target, (f"`carto hook {self.provider}` finds no handler ({why_not or 'disabled'}): "
                        "declare the `carto.capture` entry point and install the package")
        return load_handler(target)

    def test_capture_is_installed_for_carto_hook(self):
        import inspect

        handler = self.handler()
        parameters = list(inspect.signature(handler).parameters)
        assert parameters[:3] == ["event_name", "payload", "home"], (
            f"the capture handler takes {parameters}; the contract is "
            "handle(event_name, payload, home) -> Outcome | None (docs/capture.md)")

    def test_capture_rows_follow_the_row_rules(self, payloads, carto_contract_home):
        from carto_core.capture.context import Outcome

        handler, rows, problems = self.handler(), 0, []
        for event_name, payload in payloads:
            outcome = handler(event_name, payload, carto_contract_home)
            assert outcome is None or isinstance(outcome, Outcome), (
                f"{event_name}: the handler returned {type(outcome).__name__}, not an Outcome")
            for log, row in (outcome.rows if outcome else []):
                rows += 1
                problems.extend(row_problems(Emit(log, row), self.provider))
        assert rows >= self.min_rows, f"the payloads gave {rows} rows; expected >= {self.min_rows}"
        assert not problems, "\n".join(problems[:20])

    def test_capture_through_carto_hook_writes_the_rows(self, payloads, carto_contract_home):
        from carto_core.capture.hookpath import run

        for event_name, payload in payloads:
            run(self.provider, event_name, json.dumps(payload).encode("utf-8"), carto_contract_home)
        written = [line.row for log in SEARCHED_LOGS
                   for line in iter_lines(carto_contract_home.log(log))]
        assert len(written) >= self.min_rows, (
            f"`carto hook {self.provider}` wrote {len(written)} rows for the payloads")
        assert all(row.get("provider") in (None, self.provider) for row in written)

    def test_capture_survives_hostile_payloads(self, payloads, hostile_payloads, carto_contract_home):
        from carto_core.capture.hookpath import run

        handler = self.handler()
        events = sorted({event for event, _ in payloads}
                        | {"PostToolUse", "PreToolUse", "SessionStart", "Stop", "NoSuchEvent"})
        pairs = [(event, payload) for event in events for payload in HOSTILE_PAYLOADS]
        problems = []
        for event_name, payload in pairs + list(hostile_payloads):
            try:
                outcome = handler(event_name, payload, carto_contract_home)
            except Exception as exc:  # the contract: a hook never raises
                raise AssertionError(f"{event_name} {str(payload)[:120]}: raised {exc!r}") from exc
            for log, row in (outcome.rows if outcome else []):
                problems.extend(row_problems(Emit(log, row), self.provider))
        for raw in HOSTILE_STDIN:
            run(self.provider, "PostToolUse", raw, carto_contract_home)
        assert not problems, "\n".join(problems[:20])

    def test_capture_path_imports_neither_click_nor_pluggy(self, payloads, tmp_path):
        import os
        import subprocess
        import sys

        for number, (event_name, payload) in enumerate(payloads):
            home = tmp_path / f"hook-home-{number}"
            env = {**os.environ, "CARTO_HOME": str(home), "CARTO_CATCHUP": "0"}
            done = subprocess.run(
                [sys.executable, "-c", _HOOK_PROCESS, self.provider, event_name,
                 json.dumps(payload), json.dumps(HEAVY_MODULES)],
                capture_output=True, text=True, env=env, timeout=120)
            assert done.returncode == 0, done.stderr
            report = json.loads(done.stdout.strip().splitlines()[-1])
            assert report["heavy"] == [], (
                f"`carto hook {self.provider} {event_name}` imported {report['heavy']}: the hook "
                "path is stdlib-only (import heavy libraries in the backfill source, not in capture)")
