"""Carto homes standing for machines of a team, and a team on a test database.

- `make_repo(folder, remote)`: a git checkout whose `origin` is `remote` (projects are matched
  across machines by it);
- `Machine`: one home (its own CARTO_HOME), its rows, and `carto` commands run in it;
- `activity(...)`: a session's rows as hooks and the transcript backfill write them (a prompt,
  tool calls with their changelog copies, a commit, turns);
- `make_team(pg_db, ...)`: carto's schema, a team and member roles with passwords, set up by
  the superuser as the team's administrator would;
- `alice_and_bob(tmp_path, pg_db, alice, bob)`: two machines of that team with a session each,
  Bob's pushed; `opened(machine, prefix)`: what `carto session PREFIX` opens there.
"""

from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.logs import order_row

NOW = datetime.now(timezone.utc).replace(microsecond=0)


def stamp(minutes_ago: float) -> str:
    return (NOW - timedelta(minutes=minutes_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


def make_repo(folder: Path, remote: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=folder, check=True)
    subprocess.run(["git", "remote", "add", "origin", remote], cwd=folder, check=True)
    (folder / "src").mkdir(exist_ok=True)
    (folder / "src" / "cart.py").write_text("total = 0\n")
    return folder


class Machine:
    """One carto home standing for one machine."""

    def __init__(self, root: Path, name: str):
        self.root = root
        self.name = name
        self.home = Home(root / "home")
        self.home.root.mkdir(parents=True, exist_ok=True)

    def env(self, **extra: str) -> dict:
        return {"CARTO_HOME": str(self.home.root), **extra}

    def write(self, label: str, rows: list[dict]) -> None:
        append_rows(self.home.log(label), rows)

    def write_all(self, rows: dict[str, list[dict]]) -> None:
        for label, items in rows.items():
            if items:
                self.write(label, items)

    def cli(self, *args: str, input: str | None = None, env: dict | None = None, check: bool = True):
        result = CliRunner().invoke(cli, list(args), env=self.env(**(env or {})), input=input,
                                    catch_exceptions=False)
        if check and result.exit_code != 0:
            raise AssertionError(f"carto {' '.join(args)} exited {result.exit_code}:\n"
                                 f"{result.output}{getattr(result, 'stderr', '')}")
        return result

    def json(self, *args: str, **kwargs) -> dict:
        result = self.cli(*args, "--json", **kwargs)
        return json.loads(result.stdout)

    def join(self, url: str, team: str, *projects: Path) -> dict:
        args = ["team", "init", url, "--team", team, "--machine", self.name]
        for project in projects:
            args += ["--allow", str(project)]
        return self.json(*args)

    def __repr__(self) -> str:
        return f"Machine({self.name!r})"


def activity(sid: str, repo: Path, *, start: float, provider: str = "claude", project: str | None = None,
             files: tuple[str, ...] = ("src/cart.py",), tag: str = "", turns: int = 2,
             commit: bool = True) -> dict[str, list[dict]]:
    """One session's rows: a prompt, an edit per file and a bash call (each a tool-use row and
    its changelog copy), a commit, and `turns` transcript turns; `start` minutes ago, one
    minute apart. `tag` words make the texts of one session findable."""
    project = project or repo.name
    out: dict[str, list[dict]] = {"prompts": [], "tool-use": [], "changelog": [], "turns": []}
    minute = start
    words = f"{tag} " if tag else ""
    session_key = "session_id"

    def tick() -> str:
        nonlocal minute
        minute -= 1
        return stamp(minute)

    out["prompts"].append(order_row("prompts", {
        "event_id": f"prompt-{sid}-0", "timestamp": tick(), "type": "prompt", "provider": provider,
        "summary": f"{words}please make the discount codes work in the cart", "project": project,
        "cwd": str(repo), session_key: sid}))
    calls = [("tool_file_edit", f"Modified: {repo}/{name}") for name in files]
    calls.append(("tool_bash", f"Ran: pytest {words}tests/test_cart.py"))
    for n, (etype, summary) in enumerate(calls):
        common = {"event_id": f"evt-{sid}-{n}", "timestamp": tick(), "type": etype, "provider": provider,
                  "summary": summary, "project": project, "cwd": str(repo)}
        out["tool-use"].append(order_row("tool-use", {**common, "tool": "Edit" if etype == "tool_file_edit" else "Bash",
                                                      "session": sid}))
        out["changelog"].append(order_row("changelog", {**common, "session_id": sid, "related_ids": []}))
    if commit:
        sha = (sid.replace("-", "") * 8)[:40]
        out["changelog"].append(order_row("changelog", {
            "event_id": f"git-{sid}", "timestamp": tick(), "type": "git_commit", "provider": provider,
            "session_id": sid, "project": project, "cwd": str(repo),
            "summary": f"[feature] Commit {sha}: feat(cart): {words}discount codes | files: {', '.join(files)}",
            "related_ids": [], "commit_type": "feature"}))
    for idx in range(turns):
        out["turns"].append(order_row("turns", {
            "event_id": f"turn-{sid}-{idx}", "timestamp": tick(), "project": project, "type": "transcript",
            "provider": provider, "summary": f"{words}turn {idx}: we reworked the discount rounding",
            "transcript_path": f"/transcripts/{sid}.jsonl", "session": sid, "turn_idx": idx}))
    return out


def make_team(pg_db, team: str = "acme", members: tuple[str, ...] = ("alice", "bob", "carol"),
              projects: dict[str, list[str]] | None = None, model: str | None = None,
              dim: int | None = None) -> dict[str, tuple[str, str]]:
    """carto's schema and `team` on `pg_db`, and a login role per member (every project, or
    `projects[member]`); returns member -> (role, URL with its password)."""
    from carto_core.team import admin

    out = {}
    with pg_db.connect() as conn:
        admin.setup(conn, team, model=model, dim=dim)
        for member in members:
            role = pg_db.role(member)
            password = f"pw-{member}-{os.getpid()}"
            admin.add_member(conn, team, role, projects=(projects or {}).get(member), password=password)
            out[member] = (role, pg_db.url(f"{role}:{password}"))
    return out


def alice_and_bob(tmp_path: Path, pg_db, alice: dict, bob: dict) -> tuple[Machine, Machine]:
    """Alice and Bob of team acme, each with a checkout of acme/shop allowed and one session
    (`alice`, `bob`: `activity`'s arguments but the checkout, `sid` among them), Bob's pushed."""
    members = make_team(pg_db)
    machines = []
    for name, session in (("alice", alice), ("bob", bob)):
        machine = Machine(tmp_path / name[0], f"{name}-box")
        shop = make_repo(tmp_path / name[0] / "code" / "shop", "git@github.com:acme/shop.git")
        machine.write_all(activity(repo=shop, **session))
        machine.join(members[name][1], "acme", shop)
        machines.append(machine)
    assert machines[1].json("team", "push")["inserted"] == 6
    return machines[0], machines[1]


def opened(machine: Machine, prefix: str) -> tuple[int, str | None]:
    """(exit code, the session's id) of `carto session PREFIX` on `machine`."""
    done = machine.cli("session", prefix, "--json", check=False)
    return done.exit_code, json.loads(done.stdout)["session"]["session_id"] if done.exit_code == 0 else None


def server_rows(pg_db, team: str = "acme", columns: str = "event_id, machine, author, log, logs, rev") -> list[tuple]:
    return pg_db.sql(f"select {columns} from carto.events where team = %s order by event_id", (team,))
