"""Repairs of a home's logs, all through the one safe rewrite path (`carto_core.logio.rewrite`).

A repair is a `Repair` (see `base`): which logs it may change, what it reads first (`prepare`),
and a pure line transform (`fix`) that counts what it found and what it changed. `run_repair`
runs it dry (reads only, counts what `--write` would change) or for real: each log that has
something to fix is rewritten with `rewrite_lines`, which re-reads the log under the rewriters'
lock, so rows appended by hooks during the repair are kept (and the transform sees every row up
to the swap; rows appended later are copied verbatim).

- `torn`: `torn-rows`: split rows glued to a torn one, restore torn rows from a whole copy;
- `orphans`: `orphan-sessions`: give rows logged without a session the one session that
  matches them strictly (transcript, or project and time), refusing ambiguity;
- `transcripts`: `transcript-paths`: point rows at Codex rollouts and Claude Code transcripts that moved.

The CLI faces are `carto_core.cli.repair_*` (one module per command); a new repair adds a
module here, one under cli/, and one line in `cli.repair_cmd.REPAIR_COMMANDS`.
"""

from carto_core.repair.base import Repair, Tally, read_lines, run_repair

__all__ = ["Repair", "Tally", "read_lines", "run_repair"]
