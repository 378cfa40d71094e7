"""`carto eval`: compare rankers and decay policies on a home, in one run."""

from __future__ import annotations

import click

from carto_core.cli import RegistryNamesOption
from carto_core.search.api import SEMANTIC
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.exitcodes import ExitCode
from carto_core.util.terminal import counted

DEFAULT_DECAYS = ("none", "exp", "gated-exp", "gated-prior")


def _semantic_state(engine) -> str:
    """The semantic ladder's state on this home, as the search's text says it ("available",
    "unavailable: no vectors of model ... yet (fix: carto index)")."""
    try:
        return engine.ranker(SEMANTIC).availability(engine).label()
    except Exception as exc:  # noqa: BLE001 - a broken plugin is said, never fatal here
        return f"unavailable: {type(exc).__name__}: {exc}"


#: Under a generated home's `.carto/`: the folder is one --generate wrote, so writing it again
#: replaces nothing of a person's.
GENERATED_MARK = "eval-generated"


def _refuse_foreign_folder(folder: str) -> None:
    """--generate replaces the logs of the folder it writes: refuse one holding anything it did
    not write (a real home named by mistake would lose every event)."""
    from pathlib import Path

    from carto_core.logio.home import Home

    root = Path(folder)
    if not root.is_dir() or Home(root).state_file(GENERATED_MARK).is_file():
        return
    held = sorted(p.name for p in root.iterdir())
    if held:
        shown = ", ".join(held[:4]) + (", ..." if len(held) > 4 else "")
        usage_error(f"--generate {folder}: the folder holds files not written by --generate "
                    f"({shown}); --generate replaces a home's logs with generated ones, so it "
                    "writes only into a new or empty folder (or one it wrote before): name another")


def _check_names(decays, ranker_sets, fusions=(), analyzer=None) -> None:
    """Every name the request gives is one an installed plugin registers (exit 2 otherwise),
    said before any work: a generated home is a year of events."""
    from carto_core.plugin.registry import get_registries

    registries = get_registries()
    for flag, names, known in (("fusion", fusions, registries.fusions.names()),
                               ("analyzer", [analyzer] if analyzer else [],
                                registries.analyzers.names())):
        for name in names:
            if name not in known:
                usage_error(f"unknown {flag} {name!r}; accepted: {', '.join(known)}")
    known_decays = registries.decay_policies.names()
    for name in decays:
        if name not in known_decays:
            usage_error(f"unknown decay policy {name!r}; accepted: {', '.join(known_decays)}")
    known_rankers = registries.rankers.names()
    for group in ranker_sets:
        for name in (n.strip() for n in group.split(",") if n.strip()):
            if name not in known_rankers:
                usage_error(f"unknown ranker {name!r}; accepted: {', '.join(known_rankers)}")


def default_sets(engine) -> list[list[str]]:
    """What `carto eval` compares when no --rankers is given: the set `carto search` uses by
    default (`pipeline.resolve_names` for a request that names none: the configured rankers,
    and semantic when it is installed) and the keyword ladder alone, the floor the default
    must not fall under."""
    from carto_core.search.api import SearchRequest
    from carto_core.search.pipeline import resolve_names

    default, _, _ = resolve_names(SearchRequest(query=""), engine)
    return [default] + ([["bm25"]] if default != ["bm25"] else [])


@click.command("eval", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto eval                                    # the default and keyword-only, each decay
  carto eval --generate /tmp/year --events 20000
  carto eval --generate /tmp/talk --events 6000 --dialogues a --decay gated-prior
  carto eval --decay exp --decay gated-exp --rankers bm25 --rankers bm25,semantic
  carto eval --cases my-cases.jsonl --json""")
@click.option("--decay", "decays", multiple=True, metavar="NAME", cls=RegistryNamesOption,
              registry="decay_policies",
              help=f"Decay policy to compare: {{names}} (repeatable; default: "
                   f"{', '.join(DEFAULT_DECAYS)}).")
@click.option("--rankers", "ranker_sets", multiple=True, metavar="A[,B]",
              help="A set of ladder rankers to fuse, comma-separated (repeatable; default: the "
                   "search's own set, bm25 and semantic when it is installed, and bm25 alone).")
@click.option("--cases", "cases_file", type=click.Path(exists=True, dir_okay=False),
              help="Labelled cases (JSONL, see docs/ranking.md) instead of sampling them.")
@click.option("--write-cases", type=click.Path(dir_okay=False), help="Save the sampled cases here.")
@click.option("--per-bucket", type=click.IntRange(1), default=50, show_default=True,
              help="Known-item cases per age bucket (<7d, 7-30d, 30-90d, 90d+).")
@click.option("--recency", type=click.IntRange(0), default=30, show_default=True,
              help="Recency cases (vague queries whose newest match must stay in the top 10).")
@click.option("--max-matches", type=click.IntRange(1), default=10, show_default=True,
              help="Drop known-item queries that more events than this hold in full.")
@click.option("--seed", type=int, default=11, show_default=True)
@click.option("--generate", "generate_dir", type=click.Path(file_okay=False),
              help="First write a generated home (a year of sessions) into this folder and evaluate it: a new or empty folder, or one --generate wrote before (its logs are replaced).")
@click.option("--events", type=click.IntRange(100), default=20000, show_default=True,
              help="Events to generate with --generate.")
@click.option("--dialogues", metavar="VARIANT", default=None,
              help="With --generate: also write generated multi-session dialogues (a variant of "
                   "carto_core.evaluation.dialogues: a, b, c ... z, aa, ab ...) and add their "
                   "conversational-recall questions.")
@click.option("--fusion", "fusions", multiple=True, metavar="NAME", cls=RegistryNamesOption,
              registry="fusions", help="Fusion to compare: {names} (repeatable; default: the "
                                       "configured one).")
@click.option("--analyzer", metavar="NAME", cls=RegistryNamesOption, registry="analyzers",
              help="Analyzer of the keyword index: {names} (default: configured).")
@json_option
def eval_command(decays, ranker_sets, cases_file, write_cases, per_bucket, recency, max_matches,
                 seed, generate_dir, events, dialogues, fusions, analyzer, as_json) -> None:
    """Evaluate ranking on a home: the age-curve known-item harness plus recency cases.

    Samples events per age bucket, searches for each with its 3-4 most distinctive terms and
    reports success@1, success@10 and MRR per bucket; recency cases check that vague queries
    still put the newest matching event in the top 10. Conversational cases (--dialogues, or
    `"kind": "conversational"` in --cases) report hit@1/5/10, recall@10 and MRR per category.
    Every combination of --rankers, --fusion and --decay runs on the same cases. No telemetry
    is written and delta serving is off.
    """
    from carto_core.evaluation import agecurve
    from carto_core.logio.home import current_home
    from carto_core.search.api import SearchError
    from carto_core.search.engine import SearchEngine
    from carto_core.search.pipeline import has_logs

    if dialogues:
        from carto_core.evaluation.dialogues import VARIANTS

        if dialogues not in VARIANTS:
            usage_error(f"unknown --dialogues variant {dialogues!r}; accepted: {', '.join(VARIANTS)}")
    if dialogues and not generate_dir:
        usage_error("--dialogues needs --generate DIR (it writes into a generated home)")
    _check_names(decays, ranker_sets, fusions, analyzer)
    if generate_dir:
        from carto_core.evaluation.generate import generate_home
        from carto_core.logio.home import Home

        _refuse_foreign_folder(generate_dir)
        stats = generate_home(generate_dir, events, seed=seed)
        Home(generate_dir).ensure_state()
        (Home(generate_dir).state_file(GENERATED_MARK)).write_text(
            "written by carto eval --generate; --generate may write this folder again\n")
        home = Home(generate_dir)
        dialogue_cases = []
        if dialogues:
            from carto_core.evaluation.dialogues import generate_dialogues

            dialogue_cases, _ = generate_dialogues(generate_dir, variant=dialogues, seed=seed)
        if not as_json:
            click.echo(f"generated {stats['events']} events over {stats['days']} days in {generate_dir}", err=True)
    else:
        home = current_home()
    if not generate_dir:
        from carto_core.cli.homeguard import require_home

        require_home()  # after the usage checks: a wrong request is said first
    engine = SearchEngine(home, analyzer=analyzer)
    if not has_logs(engine):
        fail(f"no searched logs in {home.root}; backfill with `carto ingest` or use --generate DIR",
             ExitCode.NOT_FOUND)
    now = agecurve.now_utc()
    decays = list(decays) or list(DEFAULT_DECAYS)
    known_rankers = engine.registries.rankers.names()
    try:
        sets = ([[n.strip() for n in s.split(",") if n.strip()] for s in ranker_sets]
                or default_sets(engine))
    except SearchError as exc:  # a configured name no plugin registers: said as search says it
        fail(str(exc), exc.code)
    for group in sets:  # the default sets' names come from the config
        for name in group:
            if name not in known_rankers:
                usage_error(f"unknown ranker {name!r}; accepted: {', '.join(known_rankers)}")
    engine.refresh()
    if cases_file:
        try:
            cases = agecurve.read_cases(cases_file)
        except (ValueError, TypeError) as exc:
            usage_error(f"--cases: {exc}")
        stats = {"cases_file": cases_file, "known_item": len(cases)}
    else:
        cases, stats = agecurve.build_cases(engine, now=now, per_bucket=per_bucket,
                                            recency=recency, max_matches=max_matches, seed=seed)
        if generate_dir and dialogue_cases:
            cases += dialogue_cases
            stats["conversational"] = len(dialogue_cases)
    if write_cases:
        agecurve.write_cases(write_cases, cases)
    if not cases:
        fail("no cases could be sampled from this home (too few events with text?)", ExitCode.NOT_FOUND)
    configs = [(group, decay, fusion) for group in sets for decay in decays
               for fusion in (fusions or [None])]
    try:
        reports = agecurve.evaluate(engine, cases, configs, now=now)
    except SearchError as exc:
        fail(str(exc), exc.code)
    semantic = _semantic_state(engine) if any(SEMANTIC in group for group in sets) else None
    if as_json:
        emit_json({"home": str(home.root), "documents": len(engine.index), "sampling": stats,
                   "semantic": semantic, "configs": [vars(r) for r in reports]})
        return
    click.echo(f"home {home.root}: {counted(len(engine.index), 'event')}; "
               f"{counted(stats.get('known_item', 0), 'known-item case')}, "
               f"{counted(stats.get('recency', 0), 'recency case')}"
               + (f" (dropped {counted(stats['dropped_too_many_matches'], 'non-specific query', 'non-specific queries')})"
                  if "dropped_too_many_matches" in stats else ""))
    if semantic is not None and semantic != "available":
        # the sets with semantic then ranked as the keyword ladder alone: say so beside them
        click.echo(f"semantic ladder {semantic}: its rows rank as bm25's")
    click.echo(render_table(reports))
    if any(r.conversational for r in reports):
        click.echo("")
        click.echo(render_conversational(reports))


def render_table(reports) -> str:
    """A markdown table: one row per config, success@10 (and MRR) per bucket, recency."""
    from carto_core.evaluation.agecurve import BUCKETS

    # the age buckets in their order, then those a --cases file named (a case without one: "")
    present = {name for r in reports for name in r.buckets}
    ages = [b[0] for b in BUCKETS]
    names = [n for n in ages if n in present] + sorted(present - set(ages), key=lambda n: (n == "", n))
    head = "| rankers | fusion | decay | " + " | ".join(f"{n or 'unbucketed'} s@1 / s@10 / MRR" for n in names) + " | recency kept@10 |"
    lines = [head, "|" + "---|" * (4 + len(names))]
    for r in reports:
        cells = []
        for n in names:
            b = r.buckets.get(n)
            cells.append(f"{b['success@1']:.2f} / {b['success@10']:.2f} / {b['mrr']:.2f} (n={b['n']})" if b else "-")
        rec = r.recency.get("kept_in_top10")
        rec_text = f"{rec:.2f} (n={r.recency['n']})" if rec is not None else "-"
        lines.append(f"| {','.join(r.rankers)} | {r.fusion} | {r.decay} | " + " | ".join(cells) + f" | {rec_text} |")
    return "\n".join(lines)


def render_conversational(reports) -> str:
    """A markdown table: one row per config, hit@1 / hit@10 / recall@10 / MRR per category."""
    cats = list(dict.fromkeys(c for r in reports for c in r.conversational))
    head = "| rankers | fusion | decay | " + " | ".join(f"{c} h@1 / h@10 / R@10 / MRR" for c in cats) + " |"
    lines = [head, "|" + "---|" * (3 + len(cats))]
    for r in reports:
        cells = []
        for c in cats:
            m = r.conversational.get(c)
            cells.append(f"{m['hit@1']:.2f} / {m['hit@10']:.2f} / {m['recall@10']:.2f} / "
                         f"{m['mrr']:.2f} (n={m['n']})" if m else "-")
        lines.append(f"| {','.join(r.rankers)} | {r.fusion} | {r.decay} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
