"""Prompt-time recall: on UserPromptSubmit, what earlier sessions did that bears on the prompt.

Opt-in (`carto install claude --recall`, `[recall] prompt = true`, `CARTO_PROMPT_RECALL=1`).
The hook searches the persisted keyword index with the engine of `carto search`
(`carto_core.search.lite`), keeps what clears a measured relevance gate (`gate`), and answers
with at most three short snippets in the agent's hook output (`prompt`). Stdlib only: it runs
inside the agent's prompt hook. docs/recall.md describes it; the gate's figures are in
docs/ranking.md.
"""
