"""The capture contract itself: it passes a good handler and fails each kind of broken one (one
deliberately broken handler per rule), installed as real `carto.capture` entry points."""

from __future__ import annotations

import textwrap

pytest_plugins = ["pytester"]

HANDLERS = textwrap.dedent('''
    from carto_core.capture.context import Context, Outcome, new_event_id
    from carto_core.logio.logs import order_row


    def _row(ctx, text, **extra):
        return order_row("changelog", {"event_id": new_event_id(), "timestamp": ctx.timestamp,
                                       "type": "note", "provider": ctx.provider,
                                       "session_id": ctx.session, "project": "", "cwd": ctx.cwd,
                                       "summary": " ".join(text.split()), **extra})


    def good(event_name, payload, home):
        out = Outcome()
        ctx = Context(home, "good", event_name, payload)
        text = payload.get("text")
        if isinstance(text, str) and text.strip() and ctx.session:
            out.add("changelog", _row(ctx, text))
        return out


    def raises(event_name, payload, home):
        ctx = Context(home, "raises", event_name, payload)
        out = Outcome()
        out.add("changelog", _row(ctx, payload["text"].strip()))  # KeyError, AttributeError...
        return out


    def heavy(event_name, payload, home):
        import click  # noqa: F401  (a capture that pulls the CLI onto the hook path)

        return good(event_name, payload, home) and _restamp(good(event_name, payload, home), "heavy")


    def multiline(event_name, payload, home):
        out = Outcome()
        ctx = Context(home, "multiline", event_name, payload)
        if isinstance(payload.get("text"), str):
            row = _row(ctx, payload["text"])
            row["summary"] = payload["text"]  # the raw text, line breaks and all
            out.add("changelog", row)
        return out


    def wrong_key(event_name, payload, home):
        out = Outcome()
        ctx = Context(home, "wrong-key", event_name, payload)
        if isinstance(payload.get("text"), str):
            out.add("tool-use", order_row("tool-use", {
                "event_id": new_event_id(), "timestamp": ctx.timestamp, "type": "tool_bash",
                "provider": "wrong-key", "summary": "Ran: x", "session_id": ctx.session}))
        return out


    def two_args(event_name, payload):
        return Outcome()


    def _restamp(out, provider):
        out.rows = [(log, {**row, "provider": provider}) for log, row in out.rows]
        return out
''')

ENTRY_POINTS = """[carto.capture]
good = fakecap:good
raises = fakecap:raises
heavy = fakecap:heavy
multiline = fakecap:multiline
wrong-key = fakecap:wrong_key
two-args = fakecap:two_args
"""

TESTS = textwrap.dedent('''
    import pytest

    from carto_core.testing import CaptureContract

    pytest_plugins = ["carto_core.testing"]

    PAYLOADS = [("PostToolUse", {"session_id": "s1", "cwd": "/src/app", "text": "first\\nnote"}),
                ("Stop", {"session_id": "s1", "cwd": "/src/app", "text": "second note"})]


    def contract_for(provider):
        class Contract(CaptureContract):
            @pytest.fixture
            def payloads(self):
                return PAYLOADS
        Contract.provider = provider
        Contract.__name__ = "Test" + provider.title().replace("-", "")
        return Contract


    for _provider in ("good", "raises", "heavy", "multiline", "wrong-key", "two-args", "missing"):
        globals()["Test" + _provider.title().replace("-", "")] = contract_for(_provider)
''')

ALL = {"test_capture_is_installed_for_carto_hook", "test_capture_rows_follow_the_row_rules",
       "test_capture_through_carto_hook_writes_the_rows", "test_capture_survives_hostile_payloads",
       "test_capture_path_imports_neither_click_nor_pluggy"}


def test_each_broken_capture_fails_exactly_its_rule(pytester, monkeypatch, outcomes):
    site = pytester.path / "site"
    site.mkdir()
    (site / "fakecap.py").write_text(HANDLERS, "utf-8")
    info = site / "fakecap-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakecap\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, "utf-8")
    monkeypatch.syspath_prepend(str(site))  # in-process (the inline run) ...
    monkeypatch.setenv("PYTHONPATH", str(site))  # ... and the `carto hook` processes it starts
    pytester.makepyfile(test_capture=TESTS)
    reprec = pytester.inline_run("-p", "no:cacheprovider")
    failed, passed = outcomes(reprec)
    assert "TestGood" not in failed and passed["TestGood"] == ALL, failed.get("TestGood")
    assert failed["TestRaises"] == {"test_capture_survives_hostile_payloads"}
    assert failed["TestHeavy"] == {"test_capture_path_imports_neither_click_nor_pluggy"}
    # the row rules apply to the hostile payloads' rows too
    assert failed["TestMultiline"] == {"test_capture_rows_follow_the_row_rules",
                                       "test_capture_survives_hostile_payloads"}
    assert failed["TestWrongKey"] == {"test_capture_rows_follow_the_row_rules",
                                      "test_capture_survives_hostile_payloads"}
    assert "test_capture_is_installed_for_carto_hook" in failed["TestTwoArgs"]
    # no entry point: nothing holds but the (then vacuous) import check of the hook process
    assert failed["TestMissing"] == ALL - {"test_capture_path_imports_neither_click_nor_pluggy"}
