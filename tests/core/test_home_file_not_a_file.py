"""A FIFO in the place of a home's log or state file never holds a command.

The hooks read a FIFO in a log's place as empty; the commands read some of the home's files
with a plain `open()` too (the projects `--project` is checked against, the search telemetry a
session digest counts, the facts cache, the keyword index's CURRENT, the tombstones), and a
plain `open()` of a FIFO waits for a writer forever. Each command runs in a subprocess with a
timeout, so that a wait fails the test instead of hanging the run. A folder in the same places
was already read as absent or refused in one line; it is checked alongside.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile

import pytest

from carto_core.evaluation.sample import build_sample_home

_TIMEOUT = 60
SESSION = "5a1e"


def _place(path, kind):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return build_sample_home(tmp_path_factory.mktemp("sample") / "home").root


def _home(sample, tmp_path, name="home"):
    root = tmp_path / name
    shutil.copytree(sample, root)
    return root


def _carto(root, tmp_path, *args):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "CARTO_HOME": str(root), "CARTO_KEEPUP": "0", "PYTHONPATH": os.pathsep.join(sys.path)}
    try:
        return subprocess.run([sys.executable, "-m", "carto_core", *args], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"carto {' '.join(args)} waited on a file of the home")


@pytest.mark.parametrize("kind, what", [("fifo", "a FIFO, socket or device, not a log file"),
                                        ("folder", "a folder, not a log file")])
@pytest.mark.parametrize("command", ["forget", "export"])
def test_a_project_name_is_checked_without_waiting_on_a_log(sample, tmp_path, kind, what, command):
    root = _home(sample, tmp_path)
    _place(root / "changelog.jsonl", kind)
    args = ["--dry-run"] if command == "forget" else [str(tmp_path / "out.tar.gz")]
    done = _carto(root, tmp_path, command, *args, "--project", "webshop")
    if command == "export":  # refused before anything is read, with its fix, as a backup is
        from carto_core.logio.notafile import log_refusal

        said = str(log_refusal(root / "changelog.jsonl", "an export"))
    else:
        said = f"cannot read {root / 'changelog.jsonl'} ({what})"
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"carto: {command}: {said}\n")
    assert not (tmp_path / "out.tar.gz").exists()


@pytest.mark.parametrize("kind", ["fifo", "folder"])
@pytest.mark.parametrize("mode", ["--dry-run", "--write"])
def test_a_forget_refuses_tombstones_that_are_not_a_file_with_their_fix(sample, tmp_path, kind, mode):
    """Read without waiting, they ended a forget with "cannot read PATH (a folder, not a log
    file)": no log, and no word of what to do. A forget says what a backup says of them, fix
    included; --write refuses before it writes its intent (it wrote it, and every command after
    tried to finish a forget that could not bury its ids). The fix run as printed lets it through."""
    root = _home(sample, tmp_path, "my home")
    tombstones = root / ".carto" / "tombstones.bin"
    _place(tombstones, kind)
    args = ("forget", mode, "--project", "webshop", "--json")
    done = _carto(root, tmp_path, *args[:-1])
    message = _tombstones_refusal(tombstones, kind)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"carto: forget: {message}\n")
    assert not (root / ".carto" / "forget").exists()
    _run_fix(message)
    again = _carto(root, tmp_path, *args)
    assert (again.returncode, again.stderr) == (0, "")
    assert {k: json.loads(again.stdout)[k] for k in ("events", "rows")} == {"events": 16, "rows": 28}
    assert tombstones.is_file() == (mode == "--write")


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_ingest_refuses_tombstones_that_are_not_a_file_with_their_fix(sample, tmp_path, kind):
    """A backfill keeps forgotten events out through the tombstones: it ended with "cannot read
    PATH (a folder, not a log file)", and `--all` said it once per source. It says what a backup
    says of them, once, exit 1 as before; the fix run as printed lets it through."""
    root = _home(sample, tmp_path, "my home")
    tombstones = root / ".carto" / "tombstones.bin"
    _place(tombstones, kind)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "plan.md").write_text("# Plan\n\nwrite the cart test\n")
    message = _tombstones_refusal(tombstones, kind)
    every = _carto(root, tmp_path, "ingest", "--all")
    assert (every.returncode, every.stdout, every.stderr) == (1, "", f"carto: ingest: {message}\n")
    one = _carto(root, tmp_path, "ingest", "notes", "--root", str(notes))
    assert (one.returncode, one.stdout, one.stderr) == (1, "", f"carto: ingest notes: {message}\n")
    _run_fix(message)
    again = _carto(root, tmp_path, "ingest", "notes", "--root", str(notes), "--json")
    assert (again.returncode, again.stderr) == (0, "")
    assert json.loads(again.stdout)["written"] == {"milestones": 1}


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_forget_plan_reads_the_memory_file_record_as_empty(sample, tmp_path, kind):
    root = _home(sample, tmp_path)
    expected = _carto(root, tmp_path, "forget", "--dry-run", "--project", "webshop", "--json")
    assert expected.returncode == 0, expected.stderr
    _place(root / ".carto" / "memory-files.json", kind)
    done = _carto(root, tmp_path, "forget", "--dry-run", "--project", "webshop", "--json")
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == json.loads(expected.stdout)


@pytest.mark.parametrize("kind", ["fifo", "folder"])
@pytest.mark.parametrize("name", [".carto/search-calls.jsonl", "served-log.jsonl", "access-ledger.jsonl"])
def test_a_wrapup_reads_the_search_telemetry_as_absent(sample, tmp_path, kind, name):
    plain = _home(sample, tmp_path, "plain")
    expected = _carto(plain, tmp_path, "wrapup", "--session", SESSION, "--dry-run", "--json")
    assert expected.returncode == 0, expected.stderr
    root = _home(sample, tmp_path)
    _place(root / name, kind)
    done = _carto(root, tmp_path, "wrapup", "--session", SESSION, "--dry-run", "--json")
    assert (done.returncode, done.stderr) == (0, "")
    assert _timeless(done.stdout) == _timeless(expected.stdout)


def _timeless(stdout: str) -> dict:
    document = json.loads(stdout)
    document["row"].pop("timestamp")  # when the row was made: a second apart between runs
    return document


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_sessions_rebuild_the_facts_cache_in_place_of_a_fifo(sample, tmp_path, kind):
    plain = _home(sample, tmp_path, "plain")
    expected = _carto(plain, tmp_path, "sessions", "--json")
    assert expected.returncode == 0, expected.stderr
    root = _home(sample, tmp_path)
    _place(root / ".carto" / "facts" / "columns.bin", kind)
    done = _carto(root, tmp_path, "sessions", "--json")
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == json.loads(expected.stdout)
    # a FIFO is saved over; a folder is not, and the cache written for it does not stay beside it
    assert [p.name for p in (root / ".carto" / "facts").iterdir()] == ["columns.bin"]
    assert (root / ".carto" / "facts" / "columns.bin").is_dir() == (kind == "folder")


def test_search_and_index_rebuild_the_index_in_place_of_a_fifo_current(sample, tmp_path):
    plain = _home(sample, tmp_path, "plain")
    expected = _carto(plain, tmp_path, "search", "cart", "--json")
    assert expected.returncode == 0, expected.stderr
    root = _home(sample, tmp_path)
    _place(root / ".carto" / "search" / "CURRENT", "fifo")
    done = _carto(root, tmp_path, "search", "cart", "--json")
    assert (done.returncode, done.stderr) == (0, "")
    found = [(r["event_id"], r["summary"]) for r in json.loads(done.stdout)["results"]]
    assert found == [(r["event_id"], r["summary"]) for r in json.loads(expected.stdout)["results"]]
    # the sample home's cart work is found (two empty lists would compare equal too)
    assert ("evt-9a001a08efb8", "Discount codes landed in the cart; tax ordering still open") in found
    os.unlink(root / ".carto" / "search" / "CURRENT")
    os.mkfifo(root / ".carto" / "search" / "CURRENT")
    indexed = _carto(root, tmp_path, "index")
    assert (indexed.returncode, indexed.stderr) == (0, "")


def test_a_hook_asking_whether_rows_are_forgotten_does_not_wait_on_a_fifo(tmp_path):
    """`tombstone.is_buried` runs in every hook that writes a row."""
    root = tmp_path / "home"
    _place(root / ".carto" / "tombstones.bin", "fifo")
    code = ("import sys; from carto_core.logio.home import Home; "
            "from carto_core.logio.tombstone import is_buried; "
            "print(is_buried(Home(sys.argv[1]), ['evt-1', 'evt-2']))")
    try:
        done = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True,
                              timeout=_TIMEOUT, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    except subprocess.TimeoutExpired:
        pytest.fail("is_buried waited on the tombstones FIFO")
    assert (done.returncode, done.stdout, done.stderr) == (0, "[False, False]\n", "")


def test_a_folder_in_currents_place_is_named_and_nothing_is_left_beside_it(sample, tmp_path):
    """The index built to answer could not be pointed at: the refusal named the pointer written
    beside CURRENT, and that pointer and the new generation stayed, one more of each a search.
    A search says what `carto doctor` says of it, its fix included: it said "cannot read
    CURRENT (a folder, not a log file)", and CURRENT is no log."""
    root = _home(sample, tmp_path, "my home")
    search = root / ".carto" / "search"
    _place(search / "CURRENT", "folder")
    pointer = search / "CURRENT"
    problem = (f"the keyword index's pointer {pointer} is a folder, not a file: every search and "
               "`carto index` fail on it")
    fix = (f"`mv {shlex.quote(str(pointer))} {shlex.quote(f'{pointer}.aside')}` (carto keeps the name "
           "of the index's current generation there; the next search builds the index again; look "
           "at what the folder holds)")
    for _ in range(2):
        done = _carto(root, tmp_path, "search", "cart")
        assert (done.returncode, done.stdout, done.stderr) == (
            1, "", f"carto: search: {problem}; fix: {fix}\n")
    assert sorted(p.name for p in search.iterdir()) == ["CURRENT"]
    doctor = _carto(root, tmp_path, "doctor", "--no-probe", "--json")
    assert [p for p in json.loads(doctor.stdout)["problems"] if "index's pointer" in p["problem"]] == [
        {"problem": problem, "fix": fix}]


def _tombstones_problem(tombstones, kind) -> dict:
    what = "a FIFO, socket or device" if kind == "fifo" else "a folder"
    aside = shlex.quote(f"{tombstones}.aside")
    return {"problem": f"the forget tombstones {tombstones} are {what}, not a file: nothing keeps "
                       "the events `carto forget` took out from coming back, in this home (a hook "
                       "can write them again) or in one made from a copy of it",
            "fix": f"put the tombstone file back in its place, or `mv {shlex.quote(str(tombstones))} "
                   f"{aside}` and forget those events again"}


def _tombstones_refusal(tombstones, kind) -> str:
    found = _tombstones_problem(tombstones, kind)
    return f"{found['problem']}; fix: {found['fix']}"


def _run_fix(message: str) -> None:
    """The fix's command, run as a shell runs it when pasted."""
    [command] = re.findall(r"`(mv [^`]+)`", message)
    moved = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True, timeout=_TIMEOUT)
    assert (moved.returncode, moved.stderr) == (0, "")


@pytest.mark.parametrize("kind", ["fifo", "folder"])
@pytest.mark.parametrize("command", ["backup", "export"])
def test_backup_and_export_refuse_tombstones_that_are_not_a_file(sample, tmp_path, kind, command):
    """A backup left the tombstones out and said nothing: restored, it kept nothing of what
    was forgotten out. An export of a home whose hooks may have written forgotten events back
    refuses as well. The printed fix, run as printed, lets the command through."""
    root = _home(sample, tmp_path, "my home")
    tombstones = root / ".carto" / "tombstones.bin"
    _place(tombstones, kind)
    out = tmp_path / "out"
    args = ["--dir", str(out)] if command == "backup" else [str(out / "all.tar.gz")]
    done = _carto(root, tmp_path, command, *args)
    message = _tombstones_refusal(tombstones, kind)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"carto: {command}: {message}\n")
    assert not out.exists()
    _run_fix(message)
    again = _carto(root, tmp_path, command, *args)
    assert (again.returncode, again.stderr) == (0, "")
    [written] = [p.name for p in out.iterdir()]
    assert re.fullmatch(r"carto-backup-\d{8}T\d{6}Z\.tar\.gz" if command == "backup" else r"all\.tar\.gz",
                        written)


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_restore_over_a_home_whose_tombstones_are_not_a_file_is_refused(sample, tmp_path, kind):
    """The restore kept the replaced home's forgotten events out through its tombstones; a FIFO
    or folder there ended it with "PATH: a FIFO, not a regular file: never read"."""
    plain = _home(sample, tmp_path, "plain")
    taken = _carto(plain, tmp_path, "backup", "--dir", str(tmp_path / "backups"), "--json")
    assert taken.returncode == 0, taken.stderr
    backup = json.loads(taken.stdout)["backup"]
    root = _home(sample, tmp_path)
    tombstones = root / ".carto" / "tombstones.bin"
    _place(tombstones, kind)
    before = sorted(p.name for p in tmp_path.iterdir())
    done = _carto(root, tmp_path, "restore", "--force", backup)
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", f"carto: restore: {tombstones} cannot be read as tombstones: a restore over this "
               "home could bring back the events it forgot; restore into another folder "
               "(CARTO_HOME=...), or move that file aside to restore over it anyway\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert tombstones.is_dir() == (kind == "folder")


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_doctor_names_tombstones_that_are_not_a_file_and_its_fix_works(sample, tmp_path, kind):
    """Doctor said nothing of them (a folder's size read as 510 forgotten events), and with a
    home a restore kept beside this one it ended with "cannot read PATH (a folder, not a log
    file)" and no report. Now they are a problem with the words and fix a forget has for them;
    the fix run as printed, doctor names them no more."""
    root = _home(sample, tmp_path, "my home")
    shutil.copytree(root, tmp_path / "my home.replaced-20261101T000000Z")
    tombstones = root / ".carto" / "tombstones.bin"
    _place(tombstones, kind)

    def report() -> dict:
        done = _carto(root, tmp_path, "doctor", "--no-probe", "--json")
        assert done.stderr == ""
        document = json.loads(done.stdout)
        assert done.returncode == (1 if document["problems"] else 0)
        return document

    found = report()
    problem = _tombstones_problem(tombstones, kind)
    assert [p for p in found["problems"] if "forget tombstones" in p["problem"]] == [problem]
    assert (found["tombstones"], [h["unburied"] for h in found["copies"]["replaced_homes"]]) == (0, [0])
    _run_fix(problem["fix"])
    again = report()
    assert [p for p in again["problems"] if "forget tombstones" in p["problem"]] == []
    assert (again["tombstones"], [h["unburied"] for h in again["copies"]["replaced_homes"]]) == (0, [0])


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_forget_left_unfinished_says_why_it_cannot_be_finished(sample, tmp_path, kind):
    """A forget stopped after writing its intent is finished by the next command that reads
    the home; with a folder or FIFO in the tombstones' place it cannot bury its ids, and that
    command said only "could not finish it (a folder, not a file)". It says what a forget says
    of them, and answers; once the fix is run as printed, the next command finishes it."""
    from carto_core.control import forget as engine
    from carto_core.control.criteria import Criteria
    from carto_core.logio.home import Home

    root = _home(sample, tmp_path, "my home")
    home = Home(root)
    engine._write_intent(home, engine.make_plan(home, Criteria(projects=["webshop"])))
    tombstones = root / ".carto" / "tombstones.bin"
    _place(tombstones, kind)
    message = _tombstones_refusal(tombstones, kind)
    finishing = "carto: finishing a forget that was interrupted first\n"
    done = _carto(root, tmp_path, "sessions", "--json")
    assert (done.returncode, done.stderr) == (
        0, f"{finishing}carto: could not finish it ({message}); `carto forget --resume` retries\n")
    assert engine.pending(home)
    _run_fix(message)
    again = _carto(root, tmp_path, "sessions", "--json")
    assert (again.returncode, again.stderr) == (0, finishing)
    assert (engine.pending(home), tombstones.is_file()) == (False, True)
    projects = [sorted({s["project"] for s in json.loads(d.stdout)["sessions"]}) for d in (done, again)]
    assert projects == [["infra-tools", "webshop"], ["infra-tools"]]


@pytest.mark.parametrize("kind", ["fifo", "folder"])
@pytest.mark.parametrize("name", ["changelog.jsonl", "access-ledger.jsonl", ".carto/search-calls.jsonl"])
def test_a_backup_refuses_a_log_that_is_not_a_file_with_its_fix(sample, tmp_path, kind, name):
    """A log holds rows nothing rebuilds: a backup never leaves one out. It ended with "cannot
    read PATH (a folder, not a log file)" and no word of what to do, and it left the search
    telemetry log (`.carto/search-calls.jsonl`) out without a word, exit 0. It says what stands
    there and the fix; the fix run as printed lets the backup through."""
    root = _home(sample, tmp_path, "my home")
    log = root / name
    _place(log, kind)
    out = tmp_path / "out"
    what = "a FIFO, socket or device" if kind == "fifo" else "a folder"
    look = "; look at what the folder holds" if kind == "folder" else ""
    message = (f"the log {log} is {what}, not a file: a backup would leave out the rows carto keeps "
               f"there; fix: `mv {shlex.quote(str(log))} {shlex.quote(f'{log}.aside')}` (carto "
               f"starts a new log there{look})")
    done = _carto(root, tmp_path, "backup", "--dir", str(out))
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"carto: backup: {message}\n")
    assert not out.exists()
    _run_fix(message)
    again = _carto(root, tmp_path, "backup", "--dir", str(out), "--json")
    assert (again.returncode, again.stderr) == (0, "")
    assert json.loads(again.stdout)["left_out"] == []


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_backup_names_the_state_it_leaves_out(sample, tmp_path, kind):
    """A backfill checkpoint, a live transcript state, the MEMORY.md record, the logged commits
    and the team settings hold no rows: in the place of each a folder or a FIFO (what the home
    reads as absent) is left out of a backup, which went without a word; the backup's summary
    names each, one line."""
    root = _home(sample, tmp_path, "my home")
    names = [".carto/memory-files.json", ".carto/logged-commits.txt", ".carto/checkpoints/claude.json",
             ".carto/live/claude/5a1e.json", ".carto/team/team.json"]  # in the order a backup takes them
    for name in names:
        _place(root / name, kind)
    (root / ".carto" / "checkpoints" / "codex.json").write_text("{}\n")
    what = "a FIFO, socket or device" if kind == "fifo" else "a folder"
    out = tmp_path / "out"
    done = _carto(root, tmp_path, "backup", "--dir", str(out))
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert re.fullmatch(rf"{re.escape(str(out))}/carto-backup-\d{{8}}T\d{{6}}Z\.tar\.gz: 40 rows, .*", lines[0])
    assert lines[1:] == [f"  left out: {root / name} ({what}, not a file)" for name in names]
    document = json.loads(_carto(root, tmp_path, "backup", "--dir", str(out), "--json").stdout)
    assert document["left_out"] == [{"path": str(root / name), "what": what} for name in names]
    with tarfile.open(document["backup"]) as archive:
        assert [m for m in archive.getnames() if "/.carto/" in m] == [
            "carto/home/.carto/checkpoints/codex.json"]


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_every_fix_doctor_prints_for_tombstones_that_are_not_a_file_works(sample, tmp_path, kind):
    """A FIFO of mode 0644 in the tombstones' place was named twice: as the tombstones' problem,
    and as something other users can read, its fix `carto repair permissions --write`, which
    leaves the FIFO where it is (a FIFO holds nothing to read). It is named once now. A folder
    of 0755 is both, and both fixes are needed. Every fix doctor prints for the home, run
    through /bin/sh as printed and in its order, leaves doctor nothing to say of the home."""
    root = _home(sample, tmp_path, "my home")
    tombstones = root / ".carto" / "tombstones.bin"
    _place(tombstones, kind)
    tombstones.parent.chmod(0o700)  # the home's own folders are private: only what stands there is not
    tombstones.chmod(0o644 if kind == "fifo" else 0o755)
    env = {"PATH": os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "/usr/bin:/bin")]),
           "HOME": str(tmp_path), "CARTO_HOME": str(root), "CARTO_KEEPUP": "0",
           "PYTHONPATH": os.pathsep.join(sys.path)}

    def problems() -> list[dict]:
        done = _carto(root, tmp_path, "doctor", "--no-probe", "--json")
        assert done.stderr == ""
        return [p for p in json.loads(done.stdout)["problems"] if str(root) in p["problem"]]

    shared = {"problem": f"other users can read the home: 1 folder grants the group or others access "
                        f"(e.g. {tombstones} is 0755)",
              "fix": "`carto repair permissions --write` (folders 0700, files 0600)"}
    found = problems()
    assert found == ([shared] if kind == "folder" else []) + [_tombstones_problem(tombstones, kind)]
    for problem in found:
        for command in re.findall(r"`([^`]+)`", problem["fix"]):
            done = subprocess.run(["/bin/sh", "-c", command], env=env, cwd=tmp_path, capture_output=True,
                                  text=True, timeout=_TIMEOUT)
            assert (command, done.returncode) == (command, 0), done.stderr
    assert problems() == []
