"""`carto export` and `carto import`: an archive of the logs with a manifest of counts and
checksums; into an empty home it gives the same search and facts answers; a second import adds
nothing; a damaged or unsafe archive is refused before anything is written."""

from __future__ import annotations

import gzip
import io
import json
import os
import tarfile
from pathlib import Path

import pytest

from carto_core.logio.logs import SEARCHED_LOGS
from tests.control.conftest import MARK, P, Q, QMARK, files_holding, invoke

QUERIES = [QMARK, MARK, "discount codes", "coupon reload", "caching work", "cache warm", "parser manifest"]


def _answers(env=None) -> dict:
    out = {}
    for query in QUERIES:
        document = json.loads(invoke("search", query, "--json", "--all", "--no-semantic",
                                     "--limit", "20", env=env, ok=(0, 3)).output)
        out[query] = [(r["event_id"], round(r["score"], 6), r["sources"]) for r in document["results"]]
    census = json.loads(invoke("facts", "census", "--json", env=env).stdout)["facts"]
    tempo = json.loads(invoke("facts", "tempo", "--json", env=env).stdout)["facts"]
    return {"search": out, "census": census, "tempo": tempo}


def _logs(root: Path) -> dict:
    return {label: (root / name).read_bytes() for label, name in SEARCHED_LOGS.items()
            if (root / name).exists()}


def test_export_then_import_into_an_empty_home_gives_the_same_answers(full_home, tmp_path):
    home = full_home.home
    archive = tmp_path / "all.tar.gz"
    done = json.loads(invoke("export", archive, "--json").stdout)
    assert done["rows"] > 30 and archive.exists()
    with gzip.open(archive) as zipped, tarfile.open(fileobj=zipped, mode="r|") as tar:
        names = [m.name for m in tar]
    assert names[-1] == "carto/manifest.json" and "carto/home/turns.jsonl" in names
    assert not [n for n in names if "/.carto/" in n]  # derived stores and state left out

    other = {"CARTO_HOME": str(tmp_path / "other")}
    first = json.loads(invoke("import", archive, "--json", env=other).stdout)
    assert first["rows"] == done["rows"]
    assert _logs(tmp_path / "other") == _logs(home.root)  # the rows, byte for byte
    assert _answers(other) == _answers()

    again = invoke("import", archive, "--json", env=other, ok=(3,))
    assert json.loads(again.output)["rows"] == 0
    assert _logs(tmp_path / "other") == _logs(home.root)


def test_an_export_of_one_project_holds_its_events_and_nothing_of_the_other(full_home, tmp_path):
    archive = tmp_path / "q.tar.gz"
    invoke("export", "--project", Q, archive)
    other = {"CARTO_HOME": str(tmp_path / "other")}
    invoke("import", archive, env=other)
    assert files_holding(tmp_path / "other", [P, MARK]) == []
    assert files_holding(tmp_path / "other", [QMARK])
    mine = json.loads(invoke("facts", "census", "--json", "--project", Q).stdout)["facts"]["events"]
    theirs = json.loads(invoke("facts", "census", "--json", env=other).stdout)["facts"]["events"]
    assert theirs == mine
    nothing = invoke("export", "--project", "nothing-here", tmp_path / "n.tar.gz", ok=(3,))
    assert nothing.output.endswith("\ncarto: nothing matched --project nothing-here: no archive written\n")
    assert nothing.output.startswith("carto: export: no project is named 'nothing-here'")
    assert not (tmp_path / "n.tar.gz").exists()
    # An archive already there is left as it was.
    invoke("export", "--project", "nothing-here", archive, "--force", ok=(3,))
    assert json.loads(invoke("import", archive, "--json", env={"CARTO_HOME": str(tmp_path / "third")}).stdout)["rows"]


def test_a_damaged_archive_is_refused_and_nothing_is_written(full_home, tmp_path):
    archive = tmp_path / "all.tar.gz"
    invoke("export", archive)
    data = bytearray(archive.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged = tmp_path / "damaged.tar.gz"
    damaged.write_bytes(bytes(data))
    other = {"CARTO_HOME": str(tmp_path / "other")}
    done = invoke("import", damaged, env=other, ok=(1,))
    assert done.output.startswith("carto: import: ") and "Traceback" not in done.output
    assert not (tmp_path / "other").exists() or not any((tmp_path / "other").iterdir())


def _rewritten(archive: Path, out: Path, change) -> Path:
    """The archive with its members (name, bytes) passed through `change`, manifest kept."""
    members = []
    with gzip.open(archive) as zipped, tarfile.open(fileobj=zipped, mode="r|") as tar:
        for member in tar:
            members.append((member.name, tar.extractfile(member).read()))
    with gzip.open(out, "wb") as zipped, tarfile.open(fileobj=zipped, mode="w|") as tar:
        for name, data in change(members):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out


@pytest.mark.parametrize("how", ["edited row", "unlisted member", "escaping name", "no manifest"])
def test_an_archive_that_does_not_match_its_manifest_or_is_unsafe_is_refused(full_home, tmp_path, how):
    archive = tmp_path / "all.tar.gz"
    invoke("export", archive)

    def change(members):
        out = []
        for name, data in members:
            if how == "edited row" and name.endswith("changelog.jsonl"):
                data = data.replace(b"webshop", b"webshoq", 1)
            if how == "no manifest" and name.endswith("manifest.json"):
                continue
            out.append((name, data))
        if how == "unlisted member":
            out.insert(0, ("carto/home/extra.jsonl", b"{}\n"))
        if how == "escaping name":
            out.insert(0, ("carto/home/../../escaped.jsonl", b"{}\n"))
        return out

    bad = _rewritten(archive, tmp_path / "bad.tar.gz", change)
    other = {"CARTO_HOME": str(tmp_path / "other")}
    done = invoke("import", bad, env=other, ok=(1,))
    assert "carto: import:" in done.output and "Traceback" not in done.output
    assert not (tmp_path / "escaped.jsonl").exists() and not (tmp_path.parent / "escaped.jsonl").exists()
    assert not (tmp_path / "other" / "changelog.jsonl").exists()


def test_import_keeps_out_what_this_home_forgot_or_excludes(full_home, tmp_path):
    archive = tmp_path / "all.tar.gz"
    invoke("export", archive)
    invoke("forget", "--project", P, "--write")
    # every row is forgotten or present: nothing new (exit 3)
    done = json.loads(invoke("import", archive, "--json", ok=(3,)).output)
    assert done["rows"] == 0 and done["skipped"]["served"]["forgotten"] > 0
    assert sum(s.get("forgotten", 0) for s in done["skipped"].values()) > 0
    assert files_holding(full_home.home.root, [P, MARK]) == []
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "carto" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'[capture]\nexclude = ["{Q}"]\n')
    other = {"CARTO_HOME": str(tmp_path / "other")}
    invoke("import", archive, env=other)
    assert files_holding(tmp_path / "other", [QMARK]) == []


def test_an_export_of_a_project_the_home_does_not_hold_names_the_homes_projects(tmp_path, monkeypatch):
    """`carto export --project webshp x.tar.gz` said only "nothing matched --project webshp: no
    archive written"; its names match whole, as forget's do, so a typo is said as forget says
    it, with the home's projects."""
    from carto_core.evaluation.sample import build_sample_home

    home = build_sample_home(tmp_path / "h")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    done = invoke("export", "--project", "webshp", tmp_path / "x.tar.gz", ok=(3,))
    assert "carto: export: no project is named 'webshp'" in done.stderr
    assert "infra-tools, webshop" in done.stderr and not (tmp_path / "x.tar.gz").exists()
    assert invoke("export", "--project", "WebShop", tmp_path / "y.tar.gz").stderr == ""


def test_an_export_of_a_home_that_holds_no_row_writes_no_archive(tmp_path, monkeypatch):
    """`carto export x.tar.gz` on a home with no logs wrote an archive holding only its manifest
    and exited 3 ("nothing matched"): a file stood where the caller was told nothing was
    exported. As with criteria nothing matches, none is written."""
    root = tmp_path / "h"
    (root / ".carto").mkdir(parents=True)
    (root / "changelog.jsonl").write_text("")
    monkeypatch.setenv("CARTO_HOME", str(root))
    done = invoke("export", tmp_path / "x.tar.gz", ok=(3,))
    assert f"the home {root} holds no row: no archive written" in done.stderr
    assert not (tmp_path / "x.tar.gz").exists()
