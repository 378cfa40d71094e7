"""Shell-command reading in `capture.shell` that mutmut 3 changed with the suite still passing
(docs/testing.md): one-line summaries, scratch paths, heredoc delimiters, comments and escapes,
line continuations, pipes around `sed -i` and `tee`, and where a git call's message may be."""

from __future__ import annotations

import pytest

from carto_core.capture.shell import (
    flatten,
    git_calls,
    is_scratch_path,
    one_line,
    ran_summary,
    segments,
    shell_writes,
    split_heredocs,
    strip_comments,
)


def test_every_kind_of_break_and_tab_becomes_one_space():
    assert flatten("a\r\nb\nc\rd\te") == "a b c d e"


def test_one_line_cuts_at_the_byte_limit_and_marks_a_cut_character():
    assert one_line("ééé\nx", limit=5) == "éé\ufffd"
    assert one_line("first\nsecond\tthird") == "first second third"


def test_a_summary_keeps_the_commands_trailing_spaces_as_upstreams_read_did():
    # only trailing line breaks go; the one the read adds back is flattened into a space
    assert ran_summary("make  \n\n") == "Ran: make   "


@pytest.mark.parametrize("path, scratch", [("/tmp/notes.txt", True), ("/var/tmp/x.log", True),
                                           ("/private/tmp/x.log", True), ("/tmp/proj/src/a.py", False),
                                           ("/tmp/proj/X", False), ("/home/me/x.txt", False)])
def test_scratch_paths_are_loose_files_in_a_temp_root(path, scratch, monkeypatch):
    monkeypatch.delenv("TMPDIR", raising=False)
    assert is_scratch_path(path) is scratch


def test_tmpdir_is_a_temp_root_too(monkeypatch):
    monkeypatch.setenv("TMPDIR", "/scratch/me/")
    assert is_scratch_path("/scratch/me/out.txt") and not is_scratch_path("/scratch/out.txt")
    monkeypatch.setenv("TMPDIR", "/")
    assert is_scratch_path("/out.txt")


def test_a_dash_heredoc_ends_at_its_tab_indented_delimiter():
    kept, bodies = split_heredocs("cat <<-EOF > out.txt\n\tbody\n\tEOF\necho done")
    assert kept == "cat <<-EOF > out.txt\necho done" and bodies == ["\tbody"]


def test_a_plain_heredoc_does_not_end_at_an_indented_delimiter():
    kept, bodies = split_heredocs("cat <<EOF > out.txt\n\tEOF\nEOF\necho done")
    assert kept == "cat <<EOF > out.txt\necho done" and bodies == ["\tEOF"]


def test_a_here_string_is_no_heredoc():
    assert split_heredocs("grep x <<<EOF\nnext line") == ("grep x <<<EOF\nnext line", [])


@pytest.mark.parametrize("text, stripped", [
    ("make # build it", "make "),
    ("make #build", "make "),
    ("echo x# y", "echo x# y"),
    ("echo x#y", "echo x#y"),                       # a `#` inside a word starts no comment
    ('echo "a\\"#b" # c', 'echo "a\\"#b" '),       # an escaped quote keeps the string open
    ("echo a\\#b", "echo a\\#b"),
    ('echo "abc\\', 'echo "abc\\'),                 # a backslash at the very end, inside quotes
    ("echo abc\\", "echo abc\\"),                   # and outside
])
def test_comments_quotes_and_escapes(text, stripped):
    assert strip_comments(text) == stripped


def test_a_line_continuation_joins_with_a_space():
    assert segments("make \\\nall && make test") == ["make  all", "make test"]


def test_writes_through_pipes():
    assert shell_writes("sed -i 's/a/b/' conf.ini | head") == ["conf.ini"]
    assert shell_writes("echo x | tee 'my file.txt'") == ["my file.txt"]
    assert shell_writes("echo x | tee -a \"log two.txt\"") == ["log two.txt"]
    assert shell_writes("sed -i") == []  # no file named: nothing written


@pytest.mark.parametrize("command", [
    'git commit -a && git notes add -m "note" && echo done',
    'git commit -a || git notes add -m "note"',
    "git commit -a",
])
def test_a_commits_message_is_only_looked_for_in_its_own_segment(command):
    (commit, *rest) = git_calls(command, "/repo")
    assert commit.verb == "commit" and commit.message == ""


def test_a_secret_the_redactor_takes_out_is_never_named_as_a_file_written():
    # markup in a command reads as redirections: `>VALUE</string>` "writes" VALUE
    command = 'echo <string name="api_secret">Zq8Wm2Lx9Rv4Tn7Pk3Hs</string> && echo done > out.txt'
    assert shell_writes(command) == ["out.txt"]
