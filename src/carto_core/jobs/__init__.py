"""The detached children: the work a hook starts and does not wait for, each run as
`python -m carto_core.jobs.NAME` in a new session (catch-up backfill, the semantic keep-up, the
prompt-recall index refresh, a long live transcript's hand-off). What decides to start them, and
when, lives with the hooks (`carto_core.capture`, `carto_core.recall.refresh`): stdlib only. The
children run the engines (ingest, index builds) and so sit above them."""
