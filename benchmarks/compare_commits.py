"""Two commits of this repository, timed as whole processes, interleaved in one run.

Each commit is checked out (a detached worktree under --trees) and run by one venv with that
tree first on PYTHONPATH, so both sides share every installed dependency and only carto's code
differs; rounds alternate the order. Cases: `hook` (`carto hook claude PostToolUse`, a Bash
`Ran:` payload), `search` (cold `carto search --json --no-semantic`) and `facts` (cold `carto
facts census --json`) on a generated home of --events events, copied for each side.

    python benchmarks/compare_commits.py A B hook 40 --venv ../before/.venv
    python benchmarks/compare_commits.py A B search 40 20000 --venv .venv

Prints B's median over A's. On a loaded machine run both orders: the second side of a pair
showed a few per cent of bias here (docs/performance.md, the issue 19 section).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
parser = argparse.ArgumentParser()
parser.add_argument("a"), parser.add_argument("b")
parser.add_argument("case", choices=["hook", "search", "facts"])
parser.add_argument("rounds", type=int)
parser.add_argument("events", type=int, nargs="?", default=20000)
parser.add_argument("--venv", type=Path, default=Path(sys.prefix))
parser.add_argument("--trees", type=Path, default=Path(tempfile.gettempdir()))
opts = parser.parse_args()
a, b, case, rounds, events, VENV, TREES = (opts.a, opts.b, opts.case, opts.rounds, opts.events,
                                           opts.venv, opts.trees)


def tree(commit):
    path = TREES / f"carto-tree-{commit}"
    if not path.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), commit],
                       check=True, capture_output=True)
    return path
def pp(t):
    return ":".join(str(t / p) for p in ["src", "plugins/claude/src", "plugins/codex/src", "plugins/git/src", "plugins/hermes/src", "examples/notes/src", "rankers/src"])
tmp = Path(tempfile.mkdtemp())
env0 = {k: v for k, v in os.environ.items() if not k.startswith("CARTO_")}
env0.pop("PYTHONDONTWRITEBYTECODE", None)
repo = tmp / "repo"; repo.mkdir(); subprocess.run(["git", "init", "-q", str(repo)], check=True)
payload = json.dumps({"session_id": "bench", "cwd": str(repo), "transcript_path": str(tmp / "t.jsonl"), "tool_name": "Bash",
                      "tool_input": {"command": "npm test -- --grep parser"}, "tool_response": {"stdout": "ok"}}).encode()
carto = str(VENV / "bin" / "carto")
if case != "hook":
    gen = tmp / "gen"
    subprocess.run([str(VENV / "bin" / "python"), "-c", "import sys; from pathlib import Path; from carto_core.evaluation.generate import generate_home; generate_home(Path(sys.argv[1]), int(sys.argv[2]), seed=1)", str(gen), str(events)], check=True, env={**env0, "PYTHONPATH": pp(tree(b))})
envs = {}
for c in (a, b):
    user = tmp / f"user-{c}"; user.mkdir()
    home = user / "home"
    if case != "hook": shutil.copytree(gen, home)
    envs[c] = {**env0, "HOME": str(user), "XDG_CACHE_HOME": str(user / ".cache"), "CARTO_HOME": str(home), "CARTO_CATCHUP": "0", "CARTO_SEMANTIC": "0", "PYTHONPATH": pp(tree(c))}
def argv(i):
    if case == "hook": return [carto, "hook", "claude", "PostToolUse"], payload
    if case == "search": return [carto, "search", ["parser error", "flaky test", "deploy staging", "discount codes"][i % 4], "--json", "--no-semantic"], b""
    return [carto, "facts", "census", "--json"], b""
def run(c, i):
    cmd, stdin = argv(i)
    t = time.perf_counter()
    done = subprocess.run(cmd, input=stdin, env=envs[c], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode not in (0, 3): raise SystemExit(done.stderr.decode()[-500:])
    return (time.perf_counter() - t) * 1000
for c in (a, b):
    for i in range(3): run(c, i)
res = {a: [], b: []}
for i in range(rounds):
    for c in ((a, b) if i % 2 == 0 else (b, a)):
        res[c].append(run(c, i))
ma, mb = statistics.median(res[a]), statistics.median(res[b])
print(f"{case}: {a} {ma:.1f} ms, {b} {mb:.1f} ms, {b}/{a} = {mb/ma:.3f}, rounds {rounds}, load {tuple(round(x,2) for x in os.getloadavg())}")
