"""`carto serve`: the explorer web app and its JSON API on 127.0.0.1."""

from __future__ import annotations

import click

from carto_core.util.exitcodes import ExitCode
from carto_core.util.terminal import counted

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@click.command(epilog="""\b
Examples:
  carto serve                 # http://127.0.0.1:2526/?token=...
  carto serve --port 0        # any free port; the URL is printed
  TOKEN=$(cat "${CARTO_HOME:-$HOME/.local/share/carto}/.carto/serve-token")
  curl -s -H "Authorization: Bearer $TOKEN" localhost:2526/api/health
  curl -s -H "Authorization: Bearer $TOKEN" -X POST localhost:2526/api/recall \\
       -d '{"query": "discount codes"}'

Needs the `serve` extra: pip install 'carto-core[serve]'.""")
@click.option("--port", type=click.IntRange(0, 65535), default=2526, show_default=True,
              help="TCP port on 127.0.0.1 (0 picks a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Loopback address to bind; anything else is refused.")
@click.option("--poll", type=click.FloatRange(0.05, 60), default=1.0, show_default=True,
              help="Seconds between checks of the logs for appended or rewritten rows.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--warm-cli/--no-warm-cli", default=True, show_default=True,
              help="Answer `carto search` and `carto facts` of this home over a Unix socket in "
                   "the home (<home>/.carto/warm.sock): the CLI then skips its cold start.")
@click.option("--new-token", is_flag=True,
              help="Replace the home's serve token (<home>/.carto/serve-token): URLs printed "
                   "before and browsers holding the old one are refused from now on.")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              default="warning", show_default=True)
def serve(port: int, host: str, poll: float, open_browser: bool, warm_cli: bool, new_token: bool,
          log_level: str) -> None:
    """Run the explorer: a web page and a JSON API over your home, on 127.0.0.1 only.

    The corpus and the search index stay warm in memory and follow the logs as hooks append
    to them (a rewritten log is reloaded). The page has search with facets, a timeline of
    sessions, session views with transcripts, the standup with contention, and census and
    tempo charts. The API (recall, facts, sessions, events, projects, transcript, a stream of
    new events) is described at /api/openapi.json. Every route refuses a non-loopback Host,
    a foreign Origin and a cross-site fetch.

    Only the home's owner gets answers: the printed URL holds a secret token (kept in
    <home>/.carto/serve-token, readable by you alone). The browser keeps it in a cookie after
    the first visit; scripts send it as `Authorization: Bearer TOKEN`. Without it every route,
    the page included, answers 401.
    """
    from carto_core.util.output import fail

    if host not in LOOPBACK:
        fail(f"refusing to listen on {host!r}: carto serve binds loopback only "
             f"({', '.join(LOOPBACK)})", ExitCode.USAGE)
    try:
        import uvicorn  # noqa: F401

        from carto_core.serve.app import create_app
    except ImportError as exc:
        fail(f"carto serve needs the serve extra ({exc.name} is missing): "
             "pip install 'carto-core[serve]'", ExitCode.UNAVAILABLE)
    import errno
    import socket

    from carto_core.model.config import load_config

    config = load_config()
    home = config.home
    if not home.root.is_dir():
        fail(f"no carto home at {home.root} (try `carto demo --keep`, then CARTO_HOME=...)",
             ExitCode.NOT_FOUND)
    family = socket.AF_INET6 if host == "::1" else socket.AF_INET
    bind_host = "127.0.0.1" if host == "localhost" else host
    # proto must say TCP: asyncio sets TCP_NODELAY only on sockets whose proto is IPPROTO_TCP,
    # and without it every keep-alive answer waits on Nagle + delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((bind_host, port))
    except OSError as exc:
        hint = (" (another carto serve? `carto serve --port 0` takes a free port)"
                if exc.errno == errno.EADDRINUSE else "")
        fail(f"cannot listen on {bind_host}:{port}: {exc.strerror}{hint}", ExitCode.UNAVAILABLE)
    sock.listen(128)
    actual = sock.getsockname()[1]
    shown = f"[{bind_host}]" if family == socket.AF_INET6 else bind_host
    from carto_core.serve.token import load_or_create

    token = load_or_create(home, rotate=new_token)
    url = f"http://{shown}:{actual}/?token={token}"
    click.echo(f"carto: loading {home.root} ...", err=True)
    app = create_app(home, poll_seconds=poll, warm_search=True, freeze_heap=True,
                     warm_cli=click.get_current_context().find_root().command if warm_cli else None,
                     token=token)
    events = app.state.carto.live.events
    click.echo(f"carto serve: {url}  ({counted(events, 'event')}; Ctrl-C stops)", err=True)
    click.echo(url)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(app, log_level=log_level, access_log=False,
                                           lifespan="on", timeout_graceful_shutdown=2))
    server.run(sockets=[sock])
