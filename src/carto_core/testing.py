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
- event ids are non-empty strings, unique within their log, and the same on a second read;
- every row's timestamp parses (`carto_core.timeparse.parse_timestamp`);
- the text a lens shows (`summary`, else the fallback chain) is a single line, and every row is
  one line of compact JSON;
- rows go to a known log with that log's key order (`carto_core.logs.order_row`); a `provider`
  field, when present, is the source's;
- re-reading a stream from the checkpoint it returned adds no new event id, the checkpoint is
  JSON, and a second `run_ingest` into the same home writes nothing; the first wrote every id,
  and each fetches back from the logs;
- garbage input does not raise: it is skipped and counted in `ReadBatch.skipped`;
- no network: every test runs with sockets guarded; an attempt to resolve a name or connect to
  anything but a Unix socket fails the test (even if the source swallowed the error).

Class attributes tune it: `min_rows` (default 1), `garbage_min_skipped` (default 1).
The fixtures the plugin provides can be used on their own: `carto_no_network` (the socket
guard, with `.attempts`) and `carto_contract_home` (an empty carto home in `tmp_path`).

PYTEST_DONT_REWRITE: test modules import this before pytest reads their `pytest_plugins`, too
late for assertion rewriting; every assertion here carries its own message instead.
"""

from __future__ import annotations

import json
import socket
from collections import Counter
from dataclasses import dataclass, field

import pytest

from carto_core.events import TEXT_CHAIN, first_resolved
from carto_core.home import Home
from carto_core.jsonl import dumps_row
from carto_core.logs import SEARCHED_LOGS, SHAPES, order_row
from carto_core.reader import iter_lines
from carto_core.sources import Emit, ReadBatch, Source, Stream
from carto_core.timeparse import parse_timestamp


def shapes_of(log: str) -> tuple[str, ...]:
    """Shapes a row of `log` may follow: `log` itself and its variants in `carto_core.logs`
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


def row_problems(emit: Emit, source: Source) -> list[str]:
    """Everything wrong with one emitted row under the contract (empty when it is fine)."""
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
    if parse_timestamp(row.get("timestamp")) is None:
        problems.append(f"{where}: timestamp {row.get('timestamp')!r} does not parse")
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
                "(build rows with carto_core.logs.order_row)"
            )
    provider = row.get("provider")
    if provider is not None and provider != source.provider:
        problems.append(f"{where}: provider {provider!r} but the source says {source.provider!r}")
    return problems


class SourceContract:
    """Subclass in a test module, provide `source` and `garbage_source` fixtures (see module)."""

    #: The good fixtures must yield at least this many rows.
    min_rows: int = 1
    #: The garbage fixtures must be counted as at least this many skipped units.
    garbage_min_skipped: int = 1

    @pytest.fixture(autouse=True)
    def _carto_network_guard(self, carto_no_network):
        yield
        assert not carto_no_network.attempts, f"network used: {carto_no_network.attempts}"

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
        second = read_all(source).ids()
        assert second == first, "a second read from scratch gave other event ids (or another order)"

    def test_contract_checkpointed_reread_adds_nothing(self, source):
        for stream, batch in read_all(source).reads:
            seen = {emit.row.get("event_id") for emit in batch.rows}
            checkpoint = batch.checkpoint
            if checkpoint is None:
                continue
            checkpoint = json.loads(json.dumps(checkpoint))  # must survive the checkpoint file
            again = source.read(stream, checkpoint)
            new = [emit.row.get("event_id") for emit in again.rows
                   if emit.row.get("event_id") not in seen]
            assert not new, f"{stream.key}: re-read from its checkpoint added {new[:10]}"

    def test_contract_ingest_twice_writes_once(self, source, carto_contract_home):
        from carto_core.builtins.writers import JsonlWriter
        from carto_core.ingest import run_ingest

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

    def test_contract_reads_without_network(self, source, carto_no_network):
        read_all(source)
        assert carto_no_network.attempts == []
