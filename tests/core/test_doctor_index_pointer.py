"""A folder or a FIFO in the place of the keyword index's pointer (`<home>/.carto/search/CURRENT`)
is a problem `carto doctor` names, with a fix that works when run as printed.

Doctor said nothing of it but its mode (a folder of 0755 is one other users can read), while
every search ended with exit 1 on the folder (`carto index`'s keyword step too, pointing at
`carto doctor`), and a FIFO left the index unread until a search built it again. Each
command runs in a subprocess with a timeout: a doctor that waited on the FIFO fails the test
instead of hanging the run. The home's path holds a space, so the fix is run as a shell runs it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

import pytest

_TIMEOUT = 120
PROMPT = {"event_id": "evt-0a1b2c3d4e5f", "timestamp": "2026-09-08T13:00:00Z", "type": "prompt",
          "provider": "claude", "summary": "fix the flaky test", "project": "fixrepo",
          "cwd": "/w/fixrepo", "session_id": "sess-claude-1", "salience": 0.6}


def _env(tmp_path, root) -> dict:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "user"),
            "CARTO_HOME": str(root), "CARTO_KEEPUP": "0", "PYTHONPATH": os.pathsep.join(sys.path)}


def _carto(env, *args) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, "-m", "carto_core", *args], env=env, capture_output=True,
                              text=True, timeout=_TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"carto {' '.join(args)} waited on the index's pointer")


def _pointer_problems(env, pointer) -> list[dict]:
    done = _carto(env, "doctor", "--no-probe", "--json")
    assert done.returncode in (0, 1), done.stderr
    return [p for p in json.loads(done.stdout)["problems"] if str(pointer) in p["problem"]]


def _home(tmp_path) -> tuple:
    """A private home (its path holds a space) of one prompt, and the environment to run carto
    on it."""
    root = tmp_path / "my home"
    root.mkdir(mode=0o700)
    (tmp_path / "user").mkdir()
    log = root / "prompt-history.jsonl"
    log.write_text(json.dumps(PROMPT) + "\n")
    log.chmod(0o600)
    return root, _env(tmp_path, root)


def _replace(path, kind) -> None:
    path.unlink()
    if kind == "folder":
        path.mkdir(mode=0o700)  # private: the mode alone is no problem
    else:
        os.mkfifo(path, 0o600)


def _run_fix(problem: dict) -> None:
    """The fix's command, run as a shell runs it when pasted."""
    [command] = re.findall(r"`(mv [^`]+)`", problem["fix"])
    moved = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True, timeout=_TIMEOUT)
    assert (moved.returncode, moved.stderr) == (0, "")


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_doctor_names_what_sits_in_the_index_pointers_place_and_its_fix_works(tmp_path, kind):
    root, env = _home(tmp_path)
    built = _carto(env, "index", "--step", "keyword")
    assert built.returncode == 0, built.stderr
    pointer = root / ".carto" / "search" / "CURRENT"
    assert pointer.is_file()
    assert _pointer_problems(env, pointer) == []
    _replace(pointer, kind)
    aside = shlex.quote(f"{pointer}.aside")
    what = ("a folder" if kind == "folder" else "a FIFO, socket or device")
    harm = ("every search and `carto index` fail on it" if kind == "folder" else
            "the index cannot be read, and the next search builds it again in its place")
    look = "; look at what the folder holds" if kind == "folder" else ""
    assert _pointer_problems(env, pointer) == [{
        "problem": f"the keyword index's pointer {pointer} is {what}, not a file: {harm}",
        "fix": f"`mv {shlex.quote(str(pointer))} {aside}` (carto keeps the name of the index's "
               f"current generation there; the next search builds the index again{look})"}]
    [problem] = _pointer_problems(env, pointer)
    _run_fix(problem)
    found = _carto(env, "search", "flaky", "--json")
    assert found.returncode == 0, found.stderr
    assert [r["event_id"] for r in json.loads(found.stdout)["results"]] == [PROMPT["event_id"]]
    assert pointer.is_file()
    assert _pointer_problems(env, pointer) == []


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_doctor_names_what_sits_in_the_semantic_manifests_place_and_its_fix_works(tmp_path, kind):
    """The semantic index names its segments in `<home>/.carto/vectors/manifest.json`. Doctor
    said nothing of a folder or a FIFO there; a search or `carto index` opened a FIFO there and
    waited for a writer forever, and a folder there ended `carto index`'s semantic step saying
    only "is a directory". Now doctor names it with the keyword pointer's words and fix, the
    search and `carto index` say the same and answer, and the fix run as printed lets the next
    `carto index` embed the events again."""
    root, env = _home(tmp_path)
    env["CARTO_EMBEDDER"] = os.environ["CARTO_EMBEDDER"]
    built = _carto(env, "index")
    assert built.returncode == 0, built.stderr
    manifest = root / ".carto" / "vectors" / "manifest.json"
    assert manifest.is_file()
    assert _pointer_problems(env, manifest) == []
    _replace(manifest, kind)
    what = "a folder" if kind == "folder" else "a FIFO, socket or device"
    look = "; look at what the folder holds" if kind == "folder" else ""
    problem = {
        "problem": f"the semantic index's manifest {manifest} is {what}, not a file: searches answer "
                   "from their keywords alone and `carto index` embeds nothing",
        "fix": f"`mv {shlex.quote(str(manifest))} {shlex.quote(f'{manifest}.aside')}` (carto keeps the "
               f"list of the vector store's segments there; the next `carto index` embeds the events "
               f"again{look})"}
    assert _pointer_problems(env, manifest) == [problem]
    # one word the prompt holds and one it does not: the semantic ladder is asked too
    found = _carto(env, "search", "flaky login", "--json")
    assert found.returncode == 0, found.stderr
    answer = json.loads(found.stdout)
    assert [r["event_id"] for r in answer["results"]] == [PROMPT["event_id"]]
    assert {k: answer["semantic"][k] for k in ("state", "reason", "fix")} == {
        "state": "unavailable", "reason": problem["problem"], "fix": problem["fix"]}
    indexed = _carto(env, "index", "--step", "semantic")
    assert (indexed.returncode, indexed.stderr) == (0, "")
    assert (f"  why: {problem['problem']}\n  fix: {problem['fix']}\n") in indexed.stdout
    _run_fix(problem)
    again = _carto(env, "index", "--step", "semantic", "--json")
    assert again.returncode == 0, again.stderr
    [step] = json.loads(again.stdout)["steps"]
    assert {k: step[k] for k in ("outcome", "embedded", "backoff_until")} == {
        "outcome": "ok", "embedded": 1, "backoff_until": None}
    assert manifest.is_file()
    assert _pointer_problems(env, manifest) == []
