"""The contract suite itself: it passes a good source and fails each kind of broken one
(one deliberately broken source per rule)."""

from __future__ import annotations

import textwrap

pytest_plugins = ["pytester"]

SOURCES = textwrap.dedent('''
    import json, random, socket, time

    import pytest

    from carto_core.logio.logs import order_row
    from carto_core.model.sources import Emit, ReadBatch, Source, Stream
    from carto_core.testing import SourceContract

    pytest_plugins = ["carto_core.testing"]

    ITEMS = ["alpha", "beta", "gamma"]


    class Good(Source):
        name = provider = "good"
        multiline = False
        stamp = "2026-09-21T10:00:00Z"

        def discover(self):
            yield Stream(key="only")

        def event_id(self, index, start):
            return f"good-{index}"

        def summary(self, text):
            return text + ("\\nsecond line" if self.multiline else "")

        def row(self, index, text, start):
            return order_row("changelog", {"event_id": self.event_id(index, start),
                                           "timestamp": self.stamp, "type": "t",
                                           "provider": self.provider,
                                           "summary": self.summary(text)})

        def read(self, stream, checkpoint):
            start = (checkpoint or {}).get("n", 0)
            batch = ReadBatch(checkpoint={"n": len(ITEMS)})
            for index, text in enumerate(ITEMS[start:], start=start):
                batch.rows.append(Emit("changelog", self.row(index, text, start)))
                batch.units += 1
            if self.options.get("garbage"):
                batch.skipped["malformed_line"] += 2
            return batch


    class RandomIds(Good):
        def event_id(self, index, start):
            return f"r-{random.random()}"


    class MultiLine(Good):
        multiline = True


    class BadTime(Good):
        stamp = "yesterday-ish"


    class WrongOrder(Good):
        def row(self, index, text, start):
            return {"timestamp": self.stamp, "event_id": f"w-{index}", "summary": text}


    class OffByOne(Good):
        def read(self, stream, checkpoint):
            batch = super().read(stream, checkpoint)
            batch.checkpoint = {"n": len(ITEMS) - 1}  # resumes one item too early
            return batch

        def event_id(self, index, start):
            return f"o-{start}-{index - start}"  # ids relative to where the read started


    class Phones(Good):
        def read(self, stream, checkpoint):
            try:
                socket.create_connection(("example.com", 80), timeout=0.1)
            except Exception:
                pass  # swallowed: the guard must still notice
            return super().read(stream, checkpoint)


    class RaisesOnGarbage(Good):
        def read(self, stream, checkpoint):
            if self.options.get("garbage"):
                raise ValueError("boom")
            return super().read(stream, checkpoint)


    class SilentOnGarbage(Good):
        def read(self, stream, checkpoint):
            batch = super().read(stream, checkpoint)
            batch.skipped.clear()
            return batch


    class IgnoresCheckpoint(Good):
        """Re-emits everything on every read and leaves dedup to the runner."""
        def read(self, stream, checkpoint):
            return super().read(stream, None)


    class NoCheckpoint(Good):
        def read(self, stream, checkpoint):
            batch = super().read(stream, checkpoint)
            batch.checkpoint = None
            return batch


    class ClockStamps(Good):
        """Takes its timestamps from the clock instead of the bytes it reads."""
        def row(self, index, text, start):
            row = super().row(index, text, start)
            row["timestamp"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            return row


    class WrongSessionKey(Good):
        """Writes `session_id` into the tool-use log, which keys sessions on `session`."""
        def row(self, index, text, start):
            return order_row("tool-use", {"event_id": self.event_id(index, start),
                                          "timestamp": self.stamp, "type": "tool_bash",
                                          "provider": self.provider, "summary": text,
                                          "session_id": "s-1"})

        def read(self, stream, checkpoint):
            batch = super().read(stream, checkpoint)
            batch.rows = [Emit("tool-use", emit.row) for emit in batch.rows]
            return batch


    class ReplacesBadBytes(Good):
        """Decodes undecodable bytes with replacement characters and counts nothing of it."""
        def read(self, stream, checkpoint):
            batch = super().read(stream, checkpoint)
            if self.options.get("garbage"):
                raw = b"caf\\xe9 au lait"
                batch.rows.append(Emit("changelog", self.row(9, raw.decode("utf-8", "replace"), 0)))
            return batch


    class SharesAnId(Good):
        """Writes each item as a turn and as its tool call under one event id: readers fold
        by id across the logs, so one of the two is never found."""
        def read(self, stream, checkpoint):
            batch = super().read(stream, checkpoint)
            for emit in list(batch.rows):
                batch.rows.append(Emit("tool-use", order_row("tool-use", {
                    "event_id": emit.row["event_id"], "timestamp": self.stamp,
                    "type": "tool_bash", "provider": self.provider,
                    "summary": "ran " + emit.row["summary"], "session": "s-1"})))
            return batch


    class KeepsTheOffset(Good):
        """Writes the input's local time with its offset: it parses, but is not carto's form."""
        stamp = "2026-11-22T11:12:30+02:00"


    class EpochNumbers(Good):
        stamp = 1790000000


    def contract_for(cls):
        class Contract(SourceContract):
            @pytest.fixture
            def source(self):
                return cls({})

            @pytest.fixture
            def garbage_source(self):
                return cls({"garbage": True})
        Contract.__name__ = f"Test{cls.__name__}"
        return Contract


    for _cls in (Good, RandomIds, MultiLine, BadTime, WrongOrder, OffByOne, Phones,
                 RaisesOnGarbage, SilentOnGarbage, IgnoresCheckpoint, NoCheckpoint, ClockStamps,
                 WrongSessionKey, ReplacesBadBytes, SharesAnId, KeepsTheOffset, EpochNumbers):
        globals()[f"Test{_cls.__name__}"] = contract_for(_cls)
''')

ALL = {
    "test_contract_fixtures_yield_rows", "test_contract_rows_follow_the_row_rules",
    "test_contract_ids_unique_and_stable", "test_contract_checkpointed_reread_adds_nothing",
    "test_contract_ingest_twice_writes_once", "test_contract_garbage_is_skipped_and_counted",
    "test_contract_reads_without_network", "test_contract_same_bytes_give_the_same_rows",
    "test_contract_undecodable_bytes_are_counted",
}


def run_suite(pytester, outcomes) -> dict[str, dict[str, set[str]]]:
    """Failed and passed test names per class, from one inline run of the suite above."""
    pytester.makepyfile(test_sources=SOURCES)
    reprec = pytester.inline_run("-p", "no:cacheprovider")
    failed, passed = outcomes(reprec)
    return {"failed": failed, "passed": passed}


def test_each_broken_source_fails_exactly_its_rule(pytester, outcomes):
    got = run_suite(pytester, outcomes)
    failed = got["failed"]
    assert "TestGood" not in failed and got["passed"]["TestGood"] == ALL
    assert failed["TestRandomIds"] == {"test_contract_ids_unique_and_stable",
                                       "test_contract_ingest_twice_writes_once",
                                       "test_contract_same_bytes_give_the_same_rows"}
    assert failed["TestMultiLine"] == {"test_contract_rows_follow_the_row_rules",
                                       "test_contract_garbage_is_skipped_and_counted"}
    assert failed["TestBadTime"] == {"test_contract_rows_follow_the_row_rules",
                                     "test_contract_garbage_is_skipped_and_counted"}
    assert failed["TestWrongOrder"] == {"test_contract_rows_follow_the_row_rules",
                                        "test_contract_garbage_is_skipped_and_counted"}
    assert failed["TestOffByOne"] == {"test_contract_checkpointed_reread_adds_nothing",
                                      "test_contract_ingest_twice_writes_once"}
    # the network guard fails every test that read (the guard's teardown check) even though
    # the source swallowed the exception
    assert "test_contract_reads_without_network" in failed["TestPhones"]
    assert failed["TestPhones"] == ALL
    assert failed["TestRaisesOnGarbage"] == {"test_contract_garbage_is_skipped_and_counted",
                                             "test_contract_undecodable_bytes_are_counted"}
    assert failed["TestSilentOnGarbage"] == {"test_contract_garbage_is_skipped_and_counted"}
    # the rules added for issue 19, each on the source that breaks only it
    assert failed["TestIgnoresCheckpoint"] == {"test_contract_checkpointed_reread_adds_nothing"}
    assert failed["TestNoCheckpoint"] == {"test_contract_checkpointed_reread_adds_nothing"}
    assert failed["TestClockStamps"] == {"test_contract_same_bytes_give_the_same_rows"}
    assert failed["TestWrongSessionKey"] == {"test_contract_rows_follow_the_row_rules",
                                             "test_contract_garbage_is_skipped_and_counted"}
    assert failed["TestReplacesBadBytes"] == {"test_contract_undecodable_bytes_are_counted"}
    assert failed["TestSharesAnId"] == {"test_contract_ids_unique_and_stable"}
    for cls in ("TestKeepsTheOffset", "TestEpochNumbers"):
        assert failed[cls] == {"test_contract_rows_follow_the_row_rules",
                               "test_contract_garbage_is_skipped_and_counted"}, cls


def test_a_timestamp_not_in_carto_form_names_the_row_and_the_form():
    from carto_core.model.sources import Emit
    from carto_core.testing import row_problems

    def problems(stamp, kind="t"):
        return row_problems(Emit("changelog", {"event_id": "e-1", "timestamp": stamp, "type": kind,
                                               "summary": "s"}), "p")

    [offset] = problems("2026-11-22T11:12:30+02:00")
    assert offset.startswith("changelog row 'e-1': timestamp '2026-11-22T11:12:30+02:00' is not")
    assert "YYYY-MM-DDTHH:MM:SSZ" in offset and "format_timestamp" in offset
    assert problems("2026-11-22T09:12:30Z") == problems("2026-11-22T09:12:30.123Z") == []
    for bad in ("2026-11-22T09:12:30+00:00", "2026-11-22 09:12:30Z", "2026-11-22T09:12:30z",
                "2026-11-22T09:12:30", 1790000000):
        assert len(problems(bad)) == 1, bad
    # git's %aI on a commit row is the one offset carto writes (docs/records.md)
    assert problems("2026-11-22T11:12:30+02:00", "git_commit") == []
