"""`carto team admin setup URL --team NAME`: create or migrate carto's schema, create a team."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option


@click.command(epilog="""\b
Examples:
  carto team admin setup 'postgresql://carto_owner@db.example.com/carto?sslmode=verify-full' --team acme
  carto team admin setup "$OWNER_URL" --team acme --model auto   vectors of this machine's embedder
  carto team admin setup "$OWNER_URL" --team acme --model none   keyword only
\b
Run it again after upgrading carto: it migrates the schema (each version one transaction,
under an advisory lock). Creating the pgvector extension needs a superuser once; everything
else needs the owner (a role with CREATEROLE to create members).
Exit codes: 0 done, 1 refused or failed (TLS as the URL asks included), 2 bad flags, 75 the
server is unreachable.""", cls=JsonErrorCommand)
@click.argument("url")
@click.option("--team", "team_name", required=True, help="The team to create (or update).")
@click.option("--model", default="auto", show_default=True,
              help="The embedder model whose vectors the team keeps: auto (this machine's "
                   "configured embedder), a model tag, or none.")
@click.option("--analyzer", default=None, help="The analyzer of the team's keyword terms (default: this machine's).")
@json_option
def setup(url, team_name, model, analyzer, as_json) -> None:
    """Create or migrate carto's schema on a server, and create a team."""
    from carto_core.cli.team_admin import AdminTarget, admin_connect
    from carto_core.cli.team_cmd import team_work
    from carto_core.team.admin import setup as run_setup
    from carto_core.team.schema import SchemaError

    model_tag, dim = _model(model)
    if analyzer is None:
        from carto_core.search.analysis import configured_name

        analyzer = configured_name()
    target = AdminTarget(url)
    conn = admin_connect(target, as_json, schema=False)
    with team_work(conn, target, as_json, SchemaError):
        document = run_setup(conn, team_name, model=model_tag, dim=dim, analyzer=analyzer)
    if as_json:
        emit_json(document)
    else:
        moved = (f"migrated from version {document['schema_before']} to {document['schema']}"
                 if document["schema_before"] != document["schema"] else f"schema version {document['schema']}")
        click.echo(f"{moved}; team {team_name}: vectors {model_tag or 'none'}"
                   + (f" ({dim} dimensions)" if dim else "") + f", terms {analyzer}")
        if document["copy_of"]:
            click.echo(f"this database is a copy of team server {document['copy_of']} (its rows came with a dump "
                       f"or a template): it now has an id of its own, {document['server_id']}; a machine's first "
                       "push to it sends everything from the start (one that pushed to it already goes on)")
        click.echo("next: `carto team admin grant ROLE` for each person, then each runs `carto team init`")


def _model(spec: str) -> tuple[str | None, int | None]:
    """(model tag, dimension) for --model."""
    if spec in ("none", ""):
        return None, None
    from carto_core.logio.home import current_home
    from carto_core.semantic.embedder import create_embedder
    from carto_core.semantic.settings import SemanticSettings

    settings = SemanticSettings.load()
    try:
        embedder = create_embedder(settings.embedder, current_home(), settings)
        embedder.check()
        if embedder.needs_fit:
            fail(f"the embedder {embedder.name} is fitted per machine: no two machines could compare "
                 "its vectors; pick another ([semantic] embedder) or --model none")
        tag = embedder.model_tag
        dim = int(embedder.embed_query("dimension probe").shape[-1])
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - say which embedder and why
        fail(f"the configured embedder cannot say its model ({type(exc).__name__}: {exc}); "
             "--model none keeps no vectors")
    if spec != "auto" and spec != tag:
        fail(f"--model {spec}: this machine's embedder makes {tag}; a team keeps the vectors of a "
             "model its members can make (--model auto or none)")
    return tag, dim
