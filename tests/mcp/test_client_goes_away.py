"""A client that closes the server's stdout and keeps writing: `carto mcp` stops quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from carto_core.evaluation.sample import build_sample_home


def _line(message: dict) -> bytes:
    return (json.dumps(message) + "\n").encode()


def test_a_closed_stdout_ends_the_server_with_one_line_and_no_traceback(tmp_path):
    home = build_sample_home(tmp_path / "home")
    proc = subprocess.Popen([sys.executable, "-m", "carto_core", "mcp", "--no-warm"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "CARTO_HOME": str(home.root)})
    try:
        proc.stdin.write(_line({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "t", "version": "1"}}}))
        proc.stdin.flush()
        assert b'"id":0' in proc.stdout.readline()
        proc.stdout.close()
        for i in range(1, 6):
            try:
                proc.stdin.write(_line({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                        "params": {"name": "facts", "arguments": {"verb": "census"}}}))
                proc.stdin.flush()
            except BrokenPipeError:
                break
            time.sleep(0.3)
        code = proc.wait(timeout=60)
        err = proc.stderr.read().decode()
    finally:
        proc.kill()
    assert code == 0, err
    assert "Traceback" not in err and "ExceptionGroup" not in err, err
    assert len(err.splitlines()) <= 1, err
