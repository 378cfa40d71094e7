"""The Hermes source: sessions of `state.db` files and configured markdown artifacts as rows.

One job per module: `discovery` finds the streams, `reading` reads a database (the SQL),
`mapping` turns a session into rows (with `attribution` for its project and `content` for
stored values), `artifacts` maps artifact files; this class ties them to the `Source` contract.

Streams: one per database (`<hermes home>/state.db` is profile `default`, every
`<hermes home>/profiles/<name>/state.db` its own profile; dot-names and tombstoned profiles are
skipped; backups never read), and one per artifact file the policy's `artifacts` globs find.

Per session (reference 6.3):

- kept only when its `source` is in the policy's `sources`, it is not `hidden`, and (unless it
  is a cron run) it has at least `min_user_prompts` user prompts or one tool row: single-shot
  sessions are skipped;
- project attribution, first that answers: cwd / git root under `corpus_root` (the shared
  resolver); `path_projects` longest prefix; `cron_projects[job id]`; the dominant path in tool
  call arguments under `corpus_root` (>= 2 votes and >= 60 %); `default_project`;
- two-level exclusion: a session whose project or paths contain an `exclude_projects` term is
  dropped whole; a line of text matching a `redact_patterns` regex (or naming an excluded
  project) is replaced by `[excluded]`, the rest of the text stays;
- the live transcript only: `_compressed_summary` rows, rewound rows (inactive and not
  compacted) and active copies of compacted texts are left out; tool results, system messages,
  hidden scaffolding and Hermes's own review prompts are never indexed;
- a turn (turns log, `turn-hermes-<sid>-<user message rowid>`) is a user prompt and the assistant
  replies up to the next prompt, one line, `[tools: a, b]` appended, clipped to 1200 characters;
  the last turn of a session still running is held back until the session settles, so that a
  turn is never written half-grown;
- cron runs: the prompt is never indexed; one turn holds the final assistant reply (unless the
  job is in `cron_skip_turns`);
- lifecycle rows (milestones log, `hermes-session-<sid>` / `hermes-cron-<sid>`) only once a
  session has settled: `ended_at` is set or its last message is `settle_seconds` (3600) old.

Artifacts are versioned: one milestones row per content version,
`hermes-<kind>-<slug>-<sha256[:8]>`; an edited file is a new row, the old one stays.

Checkpoints (kept by `carto_core.ingest.runner.run_ingest` in `<home>/.carto/checkpoints/hermes.json`,
one entry per stream): per database, the policy digest and per session the last message id,
the last turn written and whether the lifecycle row is out; per artifact, its content hash.
A checkpoint made under another policy is ignored (the database is read again; rows already in
the logs are not written twice).
"""

from __future__ import annotations

import time

from carto_core.api import ReadBatch, Source, Stream

from carto_hermes import discovery, reading
from carto_hermes.artifacts import read_artifact
from carto_hermes.content import LineFilter
from carto_hermes.mapping import PROVIDER, SessionMapper, SessionResult
from carto_hermes.policy import Policy, load_policy, policy_from_dict


class HermesSource(Source):
    """Hermes Agent sessions and artifacts (run through `carto ingest hermes`)."""

    name = "hermes"
    provider = PROVIDER
    description = "Hermes Agent state.db sessions and markdown artifacts (needs hermes.json)"

    def __init__(self, options: dict | None = None):
        super().__init__(options)
        policy = self.options.get("policy")
        if isinstance(policy, dict):
            policy = policy_from_dict(policy)  # the policy's keys given inline (tests, embedding)
        elif policy is None:
            # No policy handed in: the policy file is required, as for the command.
            policy = load_policy(self.options.get("config"))
        self.policy: Policy = policy
        self.only: str | None = self.options.get("_only")
        self.profiles: list[str] | None = self.options.get("_profiles")
        self.since_days: float | None = self.options.get("_since_days")
        self._now: float | None = self.options.get("_now")
        self.lines = LineFilter(self.policy.line_patterns)
        self.mapper = SessionMapper(self.policy, self.lines, self.now, self.since_days)

    def now(self) -> float:
        return self._now if self._now is not None else time.time()

    @classmethod
    def present_by_default(cls) -> bool:
        """Whether Hermes keeps a database where the policy's default `hermes_home` points: a
        machine without Hermes is not asked for a policy file by `carto ingest --all`."""
        from carto_hermes.policy import default_hermes_home

        home = default_hermes_home()
        return (home / "state.db").is_file() or any((home / "profiles").glob("*/state.db"))

    def discover(self):
        return discovery.streams(self.policy, self.only, self.profiles)

    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        if stream.meta.get("kind") == "artifact":
            return read_artifact(self.policy, self.lines, stream, checkpoint)
        return reading.read_database(self.mapper, self.policy, stream, checkpoint)

    def explain(self, stream: Stream, session_id: str) -> SessionResult | None:
        """Every decision about one session, checkpoints ignored (`--show`)."""
        return reading.explain(self.mapper, self.policy, stream, session_id)
