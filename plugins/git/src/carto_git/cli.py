"""`carto ingest git`: commit history into the changelog, as upstream's backfill did."""

from __future__ import annotations

import os

import click

from carto_core.api import JsonErrorCommand

#: Agent authors whose commits count as the owner's by default (upstream adds "Claude").
AGENT_AUTHORS = ("Claude",)


class OwnerError(ValueError):
    """An explicit owner list that names nobody: fail closed rather than read everyone."""


def split_names(values) -> list[str]:
    """`--author "A,B" --author C` -> ["A", "B", "C"]; blanks dropped."""
    out: list[str] = []
    for value in values:
        out.extend(name.strip() for name in str(value).split(",") if name.strip())
    return out


def resolve_owners(explicit: tuple[str, ...] | list[str] | None, all_authors: bool, *,
                   configured=None, env: dict | None = None, user_name=None) -> tuple[list[str] | None, str]:
    """(authors or None for everyone, where they came from).

    Order: `--all-authors`; `--author`; `authors` in `[sources.git]`;
    `$CARTO_PROFILE_AUTHORS` (else `$CARTOGRAPHER_PROFILE_AUTHORS`, as `carto digest day`);
    git's `user.name`. The last two are defaults and gain the
    agent author "Claude". An explicit list (flag, config, variable) that names nobody raises
    OwnerError: an empty filter must not silently widen to every author.
    """
    env = os.environ if env is None else env
    if all_authors:
        return None, "--all-authors"
    if explicit:
        names = split_names(explicit)
        if not names:
            raise OwnerError("--author names nobody; pass a name, or --all-authors to read everyone")
        return names, "--author"
    if configured is not None:
        names = split_names(configured if isinstance(configured, list) else [configured])
        if not names:
            raise OwnerError("[sources.git] authors is empty; name an owner or pass --all-authors")
        return names, "config"
    from carto_core.api import profile_authors

    found = profile_authors(env)
    if found is not None:
        variable, names = found
        if not names:
            raise OwnerError(f"{variable} is set but empty; unset it, name an owner, or pass "
                             "--all-authors")
        return names + [a for a in AGENT_AUTHORS if a not in names], variable
    name = user_name() if callable(user_name) else (user_name or "")
    names = [name] if name else []
    return names + [a for a in AGENT_AUTHORS if a not in names], "git user.name" if name else "agent authors only"


@click.command(name="git", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto ingest git                          # this repository, my commits
  carto ingest git --repo ~/src/a --repo ~/src/b --since 2026-01-01
  carto ingest git --root ~/src --all-authors --json

Exit codes: 0 ok (including "all already logged"); 1 git failed; 2 bad option, a path that
is no repository, or an owner list that names nobody; 3 nothing to read (no commits).""")
@click.option("--repo", "repos", multiple=True, type=click.Path(),
              help="A path inside a repository (repeatable; a worktree counts as its main "
                   "repository). Default: the current directory's repository.")
@click.option("--root", "roots", multiple=True, type=click.Path(),
              help="A folder whose children are repositories (repeatable), as upstream's $DEV/*.")
@click.option("--since", metavar="DATE", help="Only commits since DATE (git's grammar: 2026-01-01, 2.weeks.ago).")
@click.option("--author", "authors", multiple=True, metavar="NAME",
              help="Owner regex (repeatable, or comma-separated). Default: "
                   "$CARTO_PROFILE_AUTHORS (or $CARTOGRAPHER_PROFILE_AUTHORS) or git "
                   "user.name, plus Claude.")
@click.option("--all-authors", is_flag=True, help="Every author's commits.")
@click.option("--limit", type=click.IntRange(min=1), default=500, show_default=True,
              help="At most this many commits per repository.")
@click.option("--no-files", is_flag=True, help="Do not list changed files.")
@click.option("--dry-run", is_flag=True, help="Read and count, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON document.")
def ingest_git(repos, roots, since, authors, all_authors, limit, no_files, dry_run, as_json):
    """Backfill git commits into changelog.jsonl as `git-<sha7>` rows.

    One `git log` process per repository (all branches and every worktree's HEAD). A commit
    the live hooks already logged (its hash in an existing summary) is not logged again, and
    re-runs write nothing new."""
    from carto_core.api import (
        ConfigError, ExitCode, counted, emit_json, fail, load_config, run_with_progress, usage_error,
        warn,
    )

    from carto_git.gitlog import GitError, git_user_name, open_repository, why_not_a_repository
    from carto_git.source import GitSource

    if all_authors and authors:
        usage_error("--author and --all-authors exclude each other")
    try:
        config = load_config()
    except ConfigError as exc:
        fail(str(exc))
    options = dict(config.section("sources").get("git", {}) or {})
    configured_authors = options.pop("authors", None)
    if repos:
        options["repos"] = list(repos)
        options.pop("roots", None)
    if roots:
        options["roots"] = list(roots)
    for path in options.get("repos") or ():
        if not os.path.exists(os.path.expanduser(path)):
            usage_error(f"--repo {path}: no such folder")
        if open_repository(os.path.expanduser(path)) is None:
            usage_error(f"--repo {path}: {why_not_a_repository(os.path.expanduser(path))}")
    for path in options.get("roots") or ():
        if not os.path.isdir(os.path.expanduser(path)):
            usage_error(f"--root {path}: no such folder")
    if not options.get("repos") and not options.get("roots") and open_repository(os.getcwd()) is None:
        usage_error("the current folder is not in a git repository; pass --repo PATH or --root DIR")
    options.update(since=since, limit=limit, files=not no_files, home=config.home)
    source = GitSource(options)
    repositories = source.repositories()
    try:
        owners, origin = resolve_owners(
            authors, all_authors, configured=configured_authors,
            user_name=lambda: git_user_name(repositories[0] if repositories else None))
    except OwnerError as exc:
        usage_error(str(exc))
    source.authors = owners
    if not as_json:
        warn(f"carto: owners: {', '.join(owners) if owners is not None else 'every author'} ({origin})")
    streams = list(source.discover())
    try:
        summary = run_with_progress(source, config.home, dry_run=dry_run, as_json=as_json, streams=streams)
    except (GitError, OSError) as exc:
        fail(f"ingest git: {exc}")
    for note in source.notes:
        warn(f"carto: {note}")
    already = summary.already_present + summary.skipped.get("already_logged", 0)
    revised = source.marked + source.unmarked
    document = {**summary.as_dict(), "owners": owners, "owners_from": origin,
                "commits_backfilled": summary.written.get("changelog", 0) - revised,
                "already_existed": already, "marked_unreachable": source.marked,
                "reached_again": source.unmarked, "notes": source.notes}
    if as_json:
        emit_json(document)
    else:
        verb = "would be backfilled" if dry_run else "backfilled"
        gone = (f", {source.marked} no longer in git history (marked unreachable)" if source.marked
                else "") + (f", {source.unmarked} reached again" if source.unmarked else "")
        click.echo(f"Done. {counted(document['commits_backfilled'], 'commit')} {verb}, {already} already existed{gone}.")
        for error in summary.errors:
            click.echo(f"  error: {error}", err=True)
    if summary.errors and not summary.rows_written and not already:
        raise SystemExit(int(ExitCode.ERROR))
    if summary.units == 0 and not summary.errors:
        if origin == "agent authors only":
            # No git user.name: only agent-authored commits qualified. Say how to widen it rather
            # than leave a silent "0 commits" that looks like an empty history.
            warn("carto: no commit matched the owners; git has no user.name here, so only agent "
                 "commits count - pass --author NAME (repeatable) or --all-authors")
        raise SystemExit(int(ExitCode.NOT_FOUND))
