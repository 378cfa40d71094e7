"""Provider-neutral live capture: hook payload facts in, upstream-shaped rows out.

A provider's capture module (Claude, Codex, ...) maps its hook events onto the builders of this
package; the builders own every rule that upstream's hooks applied (reference/cartographer.md
1.4-1.8): row shapes and key order, salience priors, noise rules, shell-write and commit
detection, single-line summaries with the 200-byte cut, `parent_event_id` threading, milestone
rows with their changelog copies, research rows with URL categories.

- `context`: `Context` (what every row of one call shares), `Outcome` (what the call produced),
  `write_outcome` (redact and append), event ids, salience priors.
- `tooluse`: tool-use-log + changelog pairs: file edits, patches, shell calls, commits.
- `webtools`: research-log rows for fetches and searches, and the web tools that make them.
- `milestones`: milestone rows, the PostCompact summary, the agent events every provider shares.
- `output`: text for the agent (context output, the edit-collision note).
- helpers: `shell` (command parsing), `research` (URL categories), `gitstate` (repository
  state, subprocess), `tail` (reading a log's last lines), `catchup` (SessionStart backfill).
  Installing hooks into an agent is `carto_core.install`; hanging a plugin's commands under
  core's groups, `carto_core.cli.plugin_commands`.

Stdlib only and import-light: this runs on every tool call of an agent, so this `__init__`
imports nothing, and a provider imports at module level only what its PostToolUse path needs
(the other builders inside the branch that uses them).

Usage from a provider module::

    ctx = Context(home, "codex", event_name, payload)
    out = Outcome()
    capture_shell(ctx, out, tool="Bash", command=cmd, failed=False, duration_ms=None)
    write_outcome(home, out)
"""
