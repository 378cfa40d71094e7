"""Unit properties of the capture library's text rules (the redaction prefilter's property lives in
tests/core/test_redact.py)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.capture import gitstate, shell
from carto_core.capture.research import categorize_url, search_results


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=700))
def test_ran_summaries_are_one_line_and_at_most_200_bytes(command):
    summary = shell.ran_summary(command)
    body = summary[len("Ran: "):]
    assert "\n" not in summary and "\r" not in summary
    assert len(body.replace("\ufffd", "?").encode()) <= 200 or "\ufffd" in body


def test_noise_is_per_segment_and_pipes_do_not_split():
    assert shell.is_noise_command("cd /x && ls -la | head")
    assert not shell.is_noise_command("ls && make")
    assert shell.is_noise_command("FOO=1 cat a.txt")
    assert not shell.is_noise_command("# only a comment\nnpm run build")


def test_commit_classification_and_salience():
    assert gitstate.classify_commit("feat(app): x") == "feature"
    assert gitstate.classify_commit("bugfix: y") == "fix"
    assert gitstate.classify_commit("Tidy and simplify the reader") == "refactor"
    assert gitstate.classify_commit("Bump") == "other"
    assert gitstate.commit_salience("feature", "Release v1.2.0", 7) == 0.9
    assert gitstate.commit_salience("style", "style: fmt", 1) == 0.3
    assert gitstate.commit_salience("fix", "fix: x v2.0", 9) == 0.9


def test_url_categories_and_search_result_shapes():
    assert categorize_url("https://arxiv.org/abs/1") == "research"
    assert categorize_url("https://docs.python.org/3/") == "docs"
    assert categorize_url("https://en.wikipedia.org/wiki/X") == "reference"
    assert categorize_url("https://example.com") == "other"
    assert search_results('{"links": [{"url": "https://a", "title": "A"}]}') == [("https://a", "A")]
    assert search_results([{"url": "https://b"}, {"url": "https://b"}]) == [("https://b", "")]
    assert search_results("not json") == []


def test_git_calls_find_repo_from_dash_c_cd_and_variables():
    calls = shell.git_calls("cd sub && git commit -m 'x'", "/base")
    assert (calls[0].repo, calls[0].literal, calls[0].message) == ("/base/sub", True, "x")
    calls = shell.git_calls('git -C "$W" commit -m y', "/base")
    assert (calls[0].repo, calls[0].literal) == ("/base", False)
    assert shell.git_calls("echo '# git commit'", "/b")[0].verb == "commit"  # quoted, not a comment
    assert shell.git_calls("# git commit -m x", "/b") == []


_WORD = st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_./-]{0,19}", fullmatch=True)


@given(_WORD, _WORD, st.sampled_from([">", ">>", "2>", "&>", ">|"]))
def test_an_output_redirection_names_its_file(command, target, arrow):
    assert shell.redirect_targets(f"{command} {arrow} {target}") == [target]
    assert target in shell.shell_writes(f"{command} {arrow}{target} && git add -A")


@given(st.text(alphabet=st.characters(blacklist_characters="'\n\\"), max_size=40))
def test_a_quoted_arrow_is_no_redirection(inside):
    assert shell.redirect_targets(f"echo '{inside}'") == []


def test_redirections_that_write_no_file():
    assert shell.shell_writes("make >/dev/null 2>&1") == []
    assert shell.shell_writes("echo x >&2; echo y 1>&2") == []
    assert shell.shell_writes('echo x > "$OUT"') == []
    assert shell.shell_writes("diff <(a) >(b)") == []
    assert shell.shell_writes("python3 - <<'PY'\nprint(1 > 0)\nPY") == []  # a heredoc body is no shell
    # Markup pasted into a command is no shell: its "targets" would be text (here a password).
    assert shell.shell_writes("echo <cfg><password>7FIoGeahvfHffK</password></cfg>") == []
