"""carto_codex: the Codex provider for carto.

- backfill: `carto ingest codex` reads rollouts (`carto_codex.source`, `carto_codex.rollout`);
- live capture: `carto hook codex <Event>` (`carto_codex.capture`), installed by
  `carto install codex` (`carto_codex.install`).

The package root stays empty on purpose: the live hook imports `carto_codex.capture` on every tool
call, and the plugin hooks (which need pluggy) live in `carto_codex.plugin`.
"""
