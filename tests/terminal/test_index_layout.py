"""`carto index` says what it did in words: a line a step, no raw report, progress on a terminal."""

from __future__ import annotations

import re

from .pty_run import env_for, in_pty, piped, plain


def test_a_readable_summary_piped_and_again(sample_home):
    env = env_for({"CARTO_EMBEDDER": "wordllama"})
    done = piped(["index"], env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"keyword index: (up to date|built|rebuilt from the logs|appended rows folded in)"
                        r" · 22 events, \d+ distinct words · (under 0\.1 s|\d+\.\d s)", lines[0]), lines
    assert re.fullmatch(r"semantic index \(wordllama\): 22 events embedded now \([\d.]+ a second\), "
                        r"22 of 22 in all · (under 0\.1 s|\d+\.\d s)", lines[1]), lines
    for raw in ("{", "None", "backoff_until", "gate_active", "dropped_models", "docs_per_second"):
        assert raw not in done.stdout
    again = [line for line in piped(["index"], env).stdout.splitlines()
             if line != "nothing new since the last run: every index is up to date"]
    assert again[0].startswith("keyword index: up to date · 22 events")
    assert again[1].startswith("semantic index (wordllama): up to date, 22 of 22 events embedded")


def test_progress_on_a_terminal_then_the_same_summary(sample_home):
    # the layout tests turn progress off (pty_run.env_for); this one is about the live bar
    env = env_for({"CARTO_EMBEDDER": "wordllama", "CARTO_PROGRESS": "1"})
    code, out = in_pty(["index", "--rebuild"], env, columns=100)
    assert code == 0
    assert "index: keyword" in plain(out) and "index: semantic" in plain(out)  # the live bar
    summary = plain(out).replace("\r", "\n").splitlines()
    assert any(line.startswith("keyword index: rebuilt from the logs · 22 events") for line in summary)


def test_a_second_run_says_why_events_were_left_to_the_keyword_index_as_the_first(sample_home):
    """minilm leaves the sample's tool rows to the keyword index: the first run said '(8 tool
    rows this embedder does not embed)', a run after it '(no text to embed)' of the same rows."""
    env = env_for({"CARTO_EMBEDDER": "minilm"})
    first = piped(["index"], env).stdout.splitlines()
    again = piped(["index", "--force"], env).stdout.splitlines()
    left = [line for line in first if "left to the keyword index" in line]
    assert left and left[0].strip().startswith("8 events left to the keyword index (8 tool rows"), first
    assert [line for line in again if "left to the keyword index" in line] == left, again


def test_the_live_bar_counts_events_not_a_bare_number():
    """The bar read 'index: semantic (2560)': 2560 of what. It says what it counts now."""
    from carto_core.cli.index_cmd import progress_text

    assert progress_text("semantic", 2560, None) == "index: semantic · 2,560 events"
    assert progress_text("semantic", 512, 1024) == "index: semantic · 512 of 1,024 events"
    assert progress_text("keyword", 1, None) == "index: keyword · 1 event"


def test_an_unknown_embedder_names_the_setting_not_a_package_to_install(sample_home):
    """CARTO_EMBEDDER=minilmm (a typo) said 'fix: pip install carto-rankers' in carto index,
    carto search and carto doctor, though carto-rankers was installed and registered four
    embedders: the fix is the name."""
    env = env_for({"CARTO_EMBEDDER": "minilmm"})
    fix = ("set CARTO_EMBEDDER or [semantic] embedder in the config file to one of http, lsa, "
           "minilm, wordllama")
    index = piped(["index"], env).stdout
    assert f"  fix: {fix}" in index.splitlines() and "pip install" not in index
    search = piped(["search", "why is the checkout total wrong", "--semantic"], env)
    assert f"(fix: {fix})" in search.stdout + search.stderr
    assert "pip install" not in search.stdout + search.stderr
    doctor = piped(["doctor", "--no-probe", "--json"], env)
    import json as _json

    assert _json.loads(doctor.stdout)["semantic"]["fix"] == fix


def test_a_log_it_cannot_read_is_said_in_words_with_where_to_look(sample_home):
    """A folder in a log's place made carto index print 'keyword: error: IsADirectoryError:
    [Errno 21] Is a directory: ...' for each step: Python's words, no next step. The keyword
    step and the semantic step build from the other logs and each names the one it skipped."""
    log = sample_home / "research-log.jsonl"
    log.unlink()
    log.mkdir()
    done = piped(["index"], env_for({"CARTO_EMBEDDER": "wordllama"}))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    for left_out in ("its events are not searched", "its events are not embedded"):
        assert (f"carto: skipped {log} (a folder, not a log file): {left_out}; "
                "`carto doctor` says what to do") in lines
    assert not any(line.startswith(("keyword: error", "semantic: error")) for line in lines)
    assert "Errno" not in done.stderr and "IsADirectoryError" not in done.stderr


def test_piped_a_long_step_says_how_far_it_got_in_plain_lines(sample_home, monkeypatch):
    """Piped (or into a log file), the semantic pass of a large home printed nothing
    for many minutes. A stderr that is no terminal gets a plain line every PLAIN_EVERY seconds
    (none in a run shorter than that), never a redrawn bar; stdout keeps the summary alone."""
    from click.testing import CliRunner

    from carto_core.cli import cli
    from carto_core.util import progress

    monkeypatch.setenv("CARTO_EMBEDDER", "wordllama")
    quick = CliRunner().invoke(cli, ["index", "--rebuild"])
    assert quick.exit_code == 0 and quick.stderr == ""  # a run shorter than the wait says nothing
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0)
    done = CliRunner().invoke(cli, ["index", "--rebuild"])
    assert done.exit_code == 0, done.output
    lines = done.stderr.splitlines()
    assert any(re.fullmatch(r"index: semantic · [\d,]+ (of [\d,]+ events \(\d+ %\)|events?) · \d+ s", line)
               for line in lines), lines
    assert "\r" not in done.stderr and "\x1b" not in done.stderr
    assert done.stdout.startswith("keyword index: rebuilt from the logs")


def test_carto_progress_off_silences_index_as_every_other_command(sample_home, monkeypatch):
    """`CARTO_PROGRESS=0` turns progress off for every command (docs/cli.md); `carto index`
    decided by the terminal alone and printed its plain lines anyway."""
    from click.testing import CliRunner

    from carto_core.cli import cli
    from carto_core.util import progress

    monkeypatch.setenv("CARTO_EMBEDDER", "wordllama")
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0)
    monkeypatch.setenv("CARTO_PROGRESS", "0")
    done = CliRunner().invoke(cli, ["index", "--rebuild"])
    assert done.exit_code == 0, done.output
    assert done.stderr == ""
    assert done.stdout.startswith("keyword index: rebuilt from the logs")
