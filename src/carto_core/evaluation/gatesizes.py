"""Does the prompt recall hold back at every home size? Homes of about 30 events, 1k, 20k and
200k (`generate_home`'s year of sessions as the bulk, and under it the same small, realistic
layer: the sample home's webshop and infra-tools work, a year-old `/init` turn of another
project, everyday turns and prompts), asked generic prompts from the webshop (every one should
stay silent) and questions whose answers the layer holds (what is injected should be them).

The generic prompts come in sets written apart: `shipped` (the gate's first set,
`promptrecall.GENERIC_PROMPTS`), `day` and `chores` (written with the size rule, looked at while
choosing it) and `aside` (written before any figure was seen and never looked at while
choosing: the check). `benchmarks/recall/eval_gate_sizes.py` prints the table of
docs/recall.md; `tests/recall/test_gate_sizes.py` holds the small home to it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from carto_core.evaluation.promptrecall import GENERIC_PROMPTS

GENERIC_SETS: dict[str, tuple[str, ...]] = {
    "shipped": GENERIC_PROMPTS,
    "day": (
        "can you run the tests again please", "analyze this codebase and write docs",
        "what changed since yesterday?", "fix the type errors", "run the linter and fix what it finds",
        "let's commit and push", "open a pull request", "check the logs for errors", "bump the version",
        "write a changelog entry", "review my changes", "the tests are failing again, can you look",
        "add more tests", "clean up the imports", "show me the diff", "why is this slow?",
        "deploy to staging", "restart the server", "install the dependencies", "upgrade the packages",
        "add error handling", "add logging here", "remove the dead code", "split this function up",
        "make the tests pass", "explain this code to me", "what's the status?", "try again",
        "that didn't work", "revert the last commit",
    ),
    "chores": (
        "set up the project", "create a new branch", "merge main into this branch",
        "resolve the merge conflicts", "update the dependencies and run the tests", "generate the docs",
        "write a README for this project", "add type hints", "add comments to this file",
        "refactor this into smaller functions", "improve the error messages", "make the output prettier",
        "add a config file", "read the file and summarize it", "find all the TODOs",
        "search the codebase for usages", "run the build", "check the CI status", "fix the flaky test",
        "increase the test coverage", "optimize the database queries", "add caching",
        "add input validation", "handle the edge cases", "write integration tests", "document the API",
        "add a CLI flag", "print debug output", "delete the temp files", "tidy up",
    ),
    "aside": (
        "please take a look at the code and tell me what you think", "can you help me with this bug",
        "go ahead and implement it", "do the same for the other files", "now write the tests",
        "is there a better way to do this?", "let's start over", "what do you recommend?",
        "update the documentation to match", "run everything and tell me what fails",
        "clean this up before we merge", "can you check my work", "now make it work on windows too",
        "ok, next task", "add the missing tests and run them", "simplify this", "why did that fail?",
        "try a different approach", "write the code for this", "check that everything still builds",
        "review the pull request", "finish the refactor", "run the migrations", "fix the warnings",
        "set up linting", "what's left to do?", "make a plan first",
        "summarize the changes for the commit message", "stop and explain", "keep going",
    ),
}
#: The sets the size rule was chosen on; `aside` is reported apart.
CHOSEN_ON = ("shipped", "day", "chores")

INIT_PROMPT = (
    "Please analyze this codebase and create a CLAUDE.md file, which will be given to future "
    "instances of Claude Code to operate in this repository. What to add: 1. Commands that will be "
    "commonly used, such as how to build, lint, and run tests. Include the necessary commands to "
    "develop in this codebase, such as how to run a single test. 2. High-level code architecture "
    "and structure so that future instances can be productive more quickly. Focus on the big "
    "picture architecture that requires reading multiple files to understand.")
INIT_ANSWER = (
    "I'll analyze the codebase to write the CLAUDE.md. The project is a static blog generator: "
    "markdown posts in content/, templates in layouts/, and a build script that renders them. "
    "Created CLAUDE.md with the build, lint and test commands (npm run build, npm run lint, npm "
    "test, npm test -- -t name for a single test) and the architecture: the renderer, the feed "
    "writer and the docs of the template helpers.")

#: Questions whose answers the layer holds: (prompt, the project it is asked from, phrases one of
#: which a relevant row's text holds).
QUESTIONS = (
    ("how are discount codes applied to the cart total?", "webshop",
     ("discount codes", "DiscountCode")),
    ("what did we do about the cart rounding being off by a cent?", "webshop",
     ("round line totals", "rounding is off by a cent", "decimal quantize")),
    ("why did the checkout total ignore the coupon with bundles?", "webshop",
     ("bundles",)),
    ("is the nat gateway per availability zone in the vpc module?", "infra-tools",
     ("nat gateway",)),
    ("how does terraform remote state locking work?", "infra-tools",
     ("remote state", "state/remote")),
    ("which decimal rounding modes did we look at?", "infra-tools",
     ("decimal", "quantize")),
    # asked from another project than the one that did the work
    ("did the vpc module get a nat gateway per availability zone?", "webshop",
     ("nat gateway",)),
    ("why was the coupon ignored in the checkout total with bundles?", "infra-tools",
     ("bundles",)),
)


def layer_rows(now: datetime) -> list[tuple[str, dict]]:
    """The realistic layer: the sample home's rows and the everyday ones beside them."""
    from carto_core.evaluation.sample import sample_rows
    from carto_core.util.timeparse import format_timestamp

    def ts(days: float) -> str:
        return format_timestamp(now - timedelta(days=days))

    out = list(sample_rows(now))
    blog = "a9b1c2d3-0000-4000-8000-0000000b1069"
    out.append(("turns", {"event_id": f"turn-{blog}-1", "timestamp": ts(360), "project": "blog",
                          "type": "transcript", "provider": "claude", "session": blog, "turn_idx": 1,
                          "summary": f"{INIT_PROMPT} {INIT_ANSWER}"}))
    out.append(("prompts", {"event_id": "evt-layerinit0001", "timestamp": ts(360), "type": "prompt",
                            "provider": "claude", "summary": INIT_PROMPT, "project": "blog",
                            "session_id": blog, "salience": 0.6}))
    infra = "a9b1c2d3-0000-4000-8000-00000000f4a2"
    for n, (ask, answer) in enumerate((
            ("can you run the tests again please", "Ran the suite again: 48 passed, 0 failed."),
            ("commit this", "Committed the change as 3e4f5a6 on main."),
            ("thanks, looks good", "Glad it works."),
    ), 1):
        out.append(("turns", {"event_id": f"turn-{infra}-{n}", "timestamp": ts(200 - n), "project": "infra-tools",
                              "type": "transcript", "provider": "claude", "session": infra, "turn_idx": n,
                              "summary": f"{ask} {answer}"}))
    shop = "a9b1c2d3-0000-4000-8000-0000000005b0"
    for n, (ask, answer) in enumerate((
            ("run the tests again please", "All 112 tests passed in 9.8 s."),
            ("analyze the codebase and write docs for the api", "I read the code and wrote docs/api.md "
             "covering the endpoints, the build and how to run the tests."),
    ), 1):
        out.append(("turns", {"event_id": f"turn-{shop}-{n}", "timestamp": ts(90 - n), "project": "webshop",
                              "type": "transcript", "provider": "claude", "session": shop, "turn_idx": n,
                              "summary": f"{ask} {answer}"}))
    for n, text in enumerate(("run the tests again", "commit this", "hello", "continue",
                              "please update the readme", "fix the lint errors"), 1):
        out.append(("prompts", {"event_id": f"evt-layerprompt{n:02d}", "timestamp": ts(30 + n), "type": "prompt",
                                "provider": "claude", "summary": text, "project": "webshop",
                                "session_id": f"layer-everyday-{n % 3}", "salience": 0.6}))
    return out


def build_home(root, events: int, *, now: datetime, seed: int = 1):
    """A home of about `events` events: `generate_home`'s bulk (none under 100) and the layer,
    its keyword index saved. Returns the Home."""
    from pathlib import Path

    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.home import Home
    from carto_core.search.index import KeywordIndex
    from carto_core.util.privatefiles import make_dirs

    root = Path(root)
    rows = layer_rows(now)
    if events - len(rows) >= 100:
        generate_home(root, events - len(rows), seed=seed, now=now - timedelta(days=1))
    else:
        make_dirs(root)
    home = Home(root)
    by_log: dict[str, list[dict]] = {}
    for label, row in rows:
        by_log.setdefault(label, []).append(row)
    for label, batch in by_log.items():
        append_rows(home.log(label), batch)
    KeywordIndex.build(home)
    return home


def relevant(row: dict, phrases) -> bool:
    from carto_core.recall.snippet import row_text
    from carto_core.search.tokens import row_text as indexed_text

    text = (row_text(row) + " " + indexed_text(row)).lower()
    return any(phrase.lower() in text for phrase in phrases)


def evaluate(home, *, now: float, gate=None, sets=GENERIC_SETS, questions=QUESTIONS,
             project: bool = True) -> dict:
    """{"generic": {set: {"prompts", "spoke", "snippets", "examples"}}, "questions": {...}}:
    each prompt asked from a new session in its project's folder as the hook asks it (`find`
    over the saved index and its tail); `project=False` asks without the current project."""
    from carto_core.recall.find import find
    from carto_core.search import lite
    from carto_core.search.index_tail import with_tail
    from carto_core.search.index_view import IndexView

    components = lite.resolve_components()
    view = with_tail(home, IndexView.open(home), components.analyzer, max_bytes=1 << 40)
    if isinstance(view, str):
        raise RuntimeError(view)
    out = {"documents": view.stats()[0], "generic": {}, "questions": {}}
    for name, prompts in sets.items():
        tally = {"prompts": 0, "spoke": 0, "snippets": 0, "examples": []}
        for prompt in prompts:
            found = find(view, components, prompt, session_id="gate-eval", now=now, gate=gate,
                         project="webshop" if project else "")
            tally["prompts"] += 1
            tally["spoke"] += bool(found.results)
            tally["snippets"] += len(found.results)
            if found.results and len(tally["examples"]) < 5:
                tally["examples"].append([prompt, [r.event_id for r in found.results]])
        out["generic"][name] = tally
    q = {"questions": 0, "answered": 0, "snippets": 0, "relevant": 0, "irrelevant": []}
    for prompt, where, phrases in questions:
        found = find(view, components, prompt, session_id="gate-eval", now=now, gate=gate,
                     project=where if project else "")
        q["questions"] += 1
        q["answered"] += bool(found.results)
        q["snippets"] += len(found.results)
        for result in found.results:
            if relevant(result.row, phrases):
                q["relevant"] += 1
            else:
                q["irrelevant"].append([prompt, result.event_id])
    out["questions"] = q
    return out
