"""`carto forget`'s flags as a person types them."""

from __future__ import annotations

from tests.control.conftest import MARK, P, invoke


def test_text_of_spaces_alone_is_refused_not_a_match_of_every_event(full_home):
    """`--match " "` matched every event of the home (a space is in nearly every row): with
    --write it would have emptied it. Refused like an empty text."""
    done = invoke("forget", "--match", " ", ok=(2,))
    assert "text of spaces alone" in done.stderr
    done = invoke("forget", "--match", " ", "--write", ok=(2,))
    assert files_kept(full_home)


def test_dry_run_is_the_default_said_aloud(full_home):
    counted = invoke("forget", "--match", MARK, ok=(0,)).stdout
    assert invoke("forget", "--match", MARK, "--dry-run", ok=(0,)).stdout == counted
    assert "--write and --dry-run disagree" in invoke("forget", "--match", MARK, "--dry-run", "--write",
                                                      ok=(2,)).stderr


def test_a_forget_by_text_says_how_to_check_it_without_writing_it_back(full_home):
    done = invoke("forget", "--match", MARK, "--write", ok=(0,))
    assert "`carto search` for the text would record it again" in done.stdout
    assert "record it again" not in invoke("forget", "--project", P, "--write", ok=(0, 3)).stdout


def files_kept(home) -> bool:
    from tests.control.conftest import files_holding

    return bool(files_holding(home.home.root, [MARK]))


def test_criteria_of_spaces_alone_are_no_criteria():
    from carto_core.control.criteria import Criteria

    assert not Criteria(match=(" ", "\t")) and Criteria(match=(" x",)).match == (" x",)
