"""A forget names the copies carto made of the home that still hold what it forgot: the home
`carto restore --force` kept beside it and the backups `carto backup` wrote; --in-replaced
forgets in the kept home too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carto_core.logio.home import current_home
from tests.control.conftest import MARK, QMARK, files_holding, invoke, light_home


@pytest.fixture
def home():
    return light_home(current_home().root)


def _restored_over(home, tmp_path) -> tuple[Path, Path]:
    """A backup in the default folder, restored over the home: (the backup, the kept home)."""
    backup = Path(json.loads(invoke("backup", "--json").stdout)["backup"])
    kept = Path(json.loads(invoke("restore", backup, "--force", "--json").stdout)["replaced_home_kept_at"])
    return backup, kept


def test_forget_names_the_replaced_home_and_the_backups_that_still_hold_it(home, tmp_path):
    backup, kept = _restored_over(home, tmp_path)
    (tmp_path / "pw").write_text("correct horse battery staple\n")
    sealed = Path(json.loads(invoke("backup", "--passphrase-file", tmp_path / "pw", "--json").stdout)["backup"])

    dry = json.loads(invoke("forget", "--match", MARK, "--json").stdout)
    assert [entry["path"] for entry in dry["copies"]["replaced_homes"]] == [str(kept)]

    text = invoke("forget", "--match", MARK, "--write").output
    assert files_holding(home.root, [MARK]) == []
    assert files_holding(kept, [MARK])  # a forget here does not reach it: it is named
    lines = text.splitlines()
    assert any(line.startswith(f"  replaced home {kept}: ") for line in lines), text
    assert any(line.startswith(f"  backup {backup}: ") and line.endswith(" rows") for line in lines), text
    assert f"  backup {sealed}: sealed: cannot be read without its key, may hold it" in lines, text
    assert "--in-replaced" in text and "`carto backup` takes one without it" in text


def test_in_replaced_forgets_in_the_kept_home_too(home, tmp_path):
    _, kept = _restored_over(home, tmp_path)
    invoke("forget", "--match", MARK, "--write")
    assert files_holding(kept, [MARK])
    done = json.loads(invoke("forget", "--match", MARK, "--write", "--in-replaced", "--json").stdout)
    assert done["replaced_homes"] and done["replaced_homes"][0]["path"] == str(kept)
    assert done["replaced_homes"][0]["events"] > 0
    assert files_holding(kept, [MARK]) == []
    assert files_holding(kept, [QMARK])  # the rest of the kept home stays
    assert done["copies"]["replaced_homes"] == []


def test_a_forget_with_no_copies_says_nothing_of_them(home):
    text = invoke("forget", "--match", MARK, "--write").output
    assert "copies carto made" not in text
