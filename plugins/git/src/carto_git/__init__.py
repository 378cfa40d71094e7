"""carto_git: git history for carto.

- `carto ingest git` (`carto_git.cli`, `carto_git.source`, `carto_git.gitlog`): commits as
  upstream's `git-<sha7>` changelog rows, one `git log` per repository;
- commit attribution for the lenses lives in core (`carto_core.lenses.attribution`), which reads the
  rows this plugin and the live hooks write.
"""
