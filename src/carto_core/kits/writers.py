"""Contract kit for writers (`carto_core.model.sources.Writer`).

    from carto_core.api import WriterContract

    class TestMyWriter(WriterContract):
        @pytest.fixture
        def writer(self):
            return MyWriter()

The rows go to `carto_contract_home` (an empty home in `tmp_path`, `carto_core.testing`).
PYTEST_DONT_REWRITE: every assertion carries its own message.
"""

from __future__ import annotations

import copy
import json

import pytest

ROWS = [{"event_id": f"evt-kit{i:06d}", "timestamp": f"2026-11-30T10:{i:02d}:00Z", "type": "kit",
         "summary": f"kit row {i}", "provider": "kit"} for i in range(5)]


class WriterContract:
    """The writer rules; provide a `writer` fixture (an instance)."""

    #: The log the kit writes to.
    log = "changelog"

    @pytest.fixture
    def writer(self):
        raise NotImplementedError("define a `writer` fixture returning the writer under test")

    def test_writer_has_a_name(self, writer):
        assert isinstance(writer.name, str) and writer.name.strip(), "a writer sets a unique `name`"

    def test_writer_reports_what_it_wrote(self, writer, carto_contract_home):
        rows = copy.deepcopy(ROWS)
        written = writer.write(carto_contract_home, self.log, rows)
        assert written == len(rows), f"write() returned {written!r} for {len(rows)} rows"

    def test_writer_leaves_the_rows_as_they_were(self, writer, carto_contract_home):
        rows = copy.deepcopy(ROWS)
        writer.write(carto_contract_home, self.log, rows)
        assert rows == ROWS, "write() changed the rows it was given (other writers receive the same)"

    def test_writer_takes_an_empty_batch(self, writer, carto_contract_home):
        assert writer.write(carto_contract_home, self.log, []) == 0, "an empty batch writes 0 rows"

    def test_a_primary_writer_lands_rows_in_the_logs(self, writer, carto_contract_home):
        if not getattr(writer, "primary", False):
            return  # a derived writer (a mirror, an index feeder) keeps rows where it likes
        writer.write(carto_contract_home, self.log, copy.deepcopy(ROWS))
        path = carto_contract_home.log(self.log)
        ids = [json.loads(line)["event_id"] for line in path.read_text("utf-8").splitlines()]
        assert ids[-len(ROWS):] == [r["event_id"] for r in ROWS], "the primary writer's rows are not in the log"
