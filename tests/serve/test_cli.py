"""`carto serve` as a user runs it: binds loopback, prints its URL, answers, refuses other hosts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.util.exitcodes import ExitCode

CARTO = str(Path(sys.executable).with_name("carto"))


def test_serve_prints_its_url_and_answers(home):
    env = {**os.environ, "CARTO_HOME": str(home.root)}
    process = subprocess.Popen([CARTO, "serve", "--port", "0"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        url = process.stdout.readline().strip()
        root, _, token = url.partition("?token=")
        assert root.startswith("http://127.0.0.1:") and root.endswith("/")
        # The printed token is the home's, kept private.
        token_file = home.root / ".carto" / "serve-token"
        assert token == token_file.read_text().strip() and len(token) >= 40
        assert token_file.stat().st_mode & 0o777 == 0o600
        health = httpx.get(url.replace("/?", "/api/health?"), timeout=10).json()
        assert health["corpus_root"] == os.path.abspath(home.root)
        assert health["search"]["warm"] is True
        # The real server runs the guard and asks for the token too.
        assert httpx.get(root + "api/health", timeout=10).status_code == 401
        assert httpx.get(root + "api/health", headers={"host": "example.com"}).status_code == 403
    finally:
        process.terminate()
        process.wait(10)


def test_serve_refuses_a_non_loopback_host(home):
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--port", "0"],
                                env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == ExitCode.USAGE
    assert "loopback" in result.output


def test_serve_without_a_home(tmp_path):
    result = CliRunner().invoke(cli, ["serve", "--port", "0"],
                                env={"CARTO_HOME": str(tmp_path / "none")})
    assert result.exit_code == ExitCode.NOT_FOUND


def test_a_busy_port_says_how_to_take_another(home):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)],
                                    env={"CARTO_HOME": str(home.root)})
    assert result.exit_code == ExitCode.UNAVAILABLE
    assert result.output.strip() == (
        f"carto: cannot listen on 127.0.0.1:{port}: Address already in use (another carto serve? "
        "`carto serve --port 0` takes a free port)")
