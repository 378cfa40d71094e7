"""Screenshots of carto's text output as a person sees it on a terminal (not a test).

    python tests/terminal/screenshots.py OUT_FOLDER

Builds the demo's sample home in a temporary folder (HOME, XDG folders and CARTO_HOME all
inside it: nothing of the machine's is read), runs each command under a pseudo-terminal of 100
columns with colour on, turns its ANSI colours into HTML and has headless Chromium render the
page to OUT_FOLDER/NAME.png (plus NAME.html and NAME.txt).
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.terminal.pty_run import env_for, in_pty  # noqa: E402

COMMANDS = {
    "search": ["search", "discount codes", "--all", "-n", "4"],
    "search-oneline": ["search", "discount codes", "--all", "--format", "oneline"],
    "search-facets": ["search", "cart", "--all", "-n", "2", "--facets"],
    "sessions": ["sessions", "--since", "200d"],
    "standup": ["standup", "--since", "6h"],
    "install": ["install", "claude"],
    "doctor": ["doctor"],
    "index": ["index"],
    "index-again": ["index"],
}
COLOURS = {30: "#555", 31: "#e06c75", 32: "#98c379", 33: "#e5c07b", 34: "#61afef", 35: "#c678dd",
           36: "#56b6c2", 37: "#dcdfe4", 90: "#7f848e", 91: "#e06c75", 92: "#98c379", 93: "#e5c07b",
           94: "#61afef", 95: "#c678dd", 96: "#56b6c2", 97: "#ffffff"}
SGR = re.compile(r"\x1b\[([0-9;]*)m")
OTHER = re.compile(r"\x1b\[[0-9;?]*[A-Za-ln-z]|\x1b\][^\x07]*\x07|\r")


def settled(text: str) -> str:
    """What stays on the screen: a line keeps what follows its last carriage return or line
    erase (a progress bar redraws itself that way and erases itself when done)."""
    lines = []
    for line in text.split("\n"):
        for mark in ("\x1b[2K", "\r"):
            if mark in line:
                line = line.rsplit(mark, 1)[1]
        lines.append(line)
    return "\n".join(lines)


def to_html(text: str) -> str:
    out, state = [], {}
    pos = 0
    text = OTHER.sub("", settled(text))
    for match in SGR.finditer(text):
        out.append(_span(html.escape(text[pos:match.start()]), state))
        codes = [int(c) for c in match.group(1).split(";") if c] or [0]
        for code in codes:
            if code == 0:
                state = {}
            elif code == 1:
                state["font-weight"] = "bold"
            elif code == 2:
                state["opacity"] = "0.65"
            elif code == 3:
                state["font-style"] = "italic"
            elif code == 4:
                state["text-decoration"] = "underline"
            elif code in COLOURS:
                state["color"] = COLOURS[code]
        pos = match.end()
    out.append(_span(html.escape(text[pos:]), state))
    return "".join(out)


def _span(text: str, state: dict) -> str:
    if not text or not state:
        return text
    style = ";".join(f"{k}:{v}" for k, v in state.items())
    return f'<span style="{style}">{text}</span>'


def page(title: str, body: str) -> str:
    return ("<!doctype html><meta charset=utf-8><style>body{margin:0;background:#1e2127;color:#dcdfe4}"
            "pre{font:14px/1.35 'DejaVu Sans Mono',monospace;padding:16px;margin:0;white-space:pre}"
            "h1{font:13px sans-serif;color:#7f848e;margin:0;padding:10px 16px 0}</style>"
            f"<h1>$ carto {html.escape(title)}</h1><pre>{body}</pre>")


def main() -> None:
    out = Path(sys.argv[1]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="screens-"))
    user = scratch / "user"
    user.mkdir()
    for var in [v for v in os.environ if v.startswith(("CARTO", "CLAUDE", "CODEX"))]:
        os.environ.pop(var)
    os.environ.update(HOME=str(user), XDG_CONFIG_HOME=str(user / ".config"),
                      XDG_DATA_HOME=str(user / ".local" / "share"), XDG_CACHE_HOME=str(user / ".cache"),
                      CARTO_HOME=str(scratch / "home"), CARTO_KEEPUP="0", CARTO_EMBEDDER="wordllama")
    from carto_core.evaluation.sample import build_sample_home

    build_sample_home(scratch / "home")
    env = env_for()
    for name, args in COMMANDS.items():
        _, text = in_pty(args, env, columns=100, rows=60)
        (out / f"{name}.txt").write_text(text)
        (out / f"{name}.html").write_text(page(" ".join(args), to_html(text)))
        lines = text.count("\n") + 3
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--screenshot={out / (name + '.png')}", f"--window-size=980,{min(4000, 60 + lines * 19)}",
                        (out / f"{name}.html").as_uri()], check=True, capture_output=True, timeout=120)
        print(out / f"{name}.png")


if __name__ == "__main__":
    main()
