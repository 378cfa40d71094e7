"""Deterministic tags of a session, derived from its rows (never typed by anyone):

- `provider:<name>` (claude, codex, hermes, ...);
- `tool:<name>` for every tool its turns called (lowercased; an MCP tool `mcp__<server>__<tool>`
  as `tool:mcp:<server>`) and for the kinds of work its hook rows logged (`tool:bash` for shell
  calls, commits and pushes, `tool:edit` for file edits, `tool:webfetch`, `tool:websearch`,
  `tool:task` for a subagent); a hook row does not name the edit tool, a transcript does;
- `ext:<extension>` of every file it edited (lowercased, without the dot);
- `outcome:commit`, `outcome:push` when it committed or pushed; `outcome:test-run` when a
  shell call ran a test runner (`TEST_RUNNER`: pytest, unittest, tox, nox, jest, vitest, mocha,
  rspec, phpunit, ctest, `npm|pnpm|yarn|bun [run] test`, `go test`, `cargo test|nextest`, `mvn
  ... test`, `gradle test`, `make test|check`); `outcome:failure` when a tool call failed (the
  transcript's error results; a hook-only session's failures are not logged);
- `topic:<word>`: the session's `TOPICS` most characteristic index terms (the terms `carto
  related SESSION` ranks first: frequent in the session, rare elsewhere), each shown as the
  word people wrote for it ("claude", not the stem "claud"), computed from the keyword index
  only when asked (`topic_tags`); `topic:` filters compare index terms, so "Claude", "claude"
  and "claud" find the same sessions.

Everything but topics comes from the session facts (`carto_core.lenses.sessionfacts`), so
`carto sessions` computes them with the rest of each summary. Read-only.
"""

from __future__ import annotations

import os
import re

from carto_core.capture.turnactivity import SHELL_TOOLS

TOPICS = 3
TEST_RUNNER = re.compile(
    r"(?:^|[\s;&|(`])(?:pytest|py\.test|tox|nox|jest|vitest|mocha|rspec|phpunit|ctest"
    r"|python3?\s+-m\s+(?:pytest|unittest)|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test"
    r"|go\s+test|cargo\s+(?:test|nextest)|mvn\s+(?:\S+\s+)*test|\S*gradlew?\s+(?:\S+\s+)*test"
    r"|make\s+(?:test|check))(?:$|[\s;&|)`])")
#: Hook event types -> the tool tag they stand for.
HOOK_TOOLS = {"tool_bash": "bash", "git_commit": "bash", "git_push": "bash", "tool_file_edit": "edit",
              "research_fetch": "webfetch", "research_search": "websearch"}
_COMMAND = re.compile(r"^(?:Ran|Pushed): ")


def _tool(name: str) -> str:
    if name.startswith("mcp__"):
        server = name[5:].split("__", 1)[0]
        return f"mcp:{server.lower()}" if server else "mcp"
    return name.lower()


def session_tags(facts) -> list[str]:
    """Every tag but topics, sorted, from a `SessionFacts`."""
    tags: set[str] = set()
    if facts.provider:
        tags.add(f"provider:{facts.provider.lower()}")
    for event in facts.rows:
        tools = event.row.get("tools") if event.source == "turns" else None
        for entry in tools if isinstance(tools, list) else ():
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                continue
            tags.add(f"tool:{_tool(entry['name'])}")
            if entry.get("failed") is True:
                tags.add("outcome:failure")
            command = entry.get("input") if entry["name"] in SHELL_TOOLS else None
            if isinstance(command, str) and TEST_RUNNER.search(command):
                tags.add("outcome:test-run")
    for event in facts.work:
        kind = HOOK_TOOLS.get(event.type) or ("task" if event.type.startswith("milestone_agent_") else None)
        if kind and event.source != "turns":
            tags.add(f"tool:{kind}")
        if event.type == "tool_bash" and event.source != "turns" and TEST_RUNNER.search(
                _COMMAND.sub("", event.summary or "")):
            tags.add("outcome:test-run")
    for path in facts.files:
        ext = os.path.splitext(path)[1].lower().lstrip(".")
        if ext and ext.isalnum() and len(ext) <= 10:
            tags.add(f"ext:{ext}")
    if facts.commits:
        tags.add("outcome:commit")
    if facts.counts.get("pushes"):
        tags.add("outcome:push")
    return sorted(tags)


def topic_terms(engine, session_id: str, n: int = TOPICS) -> list[str]:
    """The session's `n` most characteristic index terms ([] when the index holds none of its
    documents)."""
    from carto_core.search.related import RelatedError, related_to_session

    index = engine.index
    try:
        found = related_to_session(index, index.analyzer or engine.analyzer, session_id, n)
    except RelatedError:
        return []
    return [entry["term"] for entry in found["co_terms"][:n]]


def _topic_term(analyzer, value: str) -> str:
    """The index term a `topic:` value stands for (its first, as `--tag` looks it up)."""
    return (list(analyzer.terms(value)) or [value])[0]


def topic_tags(engine, session_id: str, n: int = TOPICS) -> list[str]:
    """`topic:<word>` for the session's `n` most characteristic index terms: the word people
    wrote for each (`carto_core.search.surface`; "claude", not the stem "claud"), lowercased as
    every tag's value is. A term whose word looks up another term (the compound "httpserver"
    for "http") is shown as the term, so that `--tag` with the shown tag finds the session."""
    terms = topic_terms(engine, session_id, n)
    if not terms:
        return []
    from carto_core.search.surface import surface_words

    index = engine.index
    analyzer = index.analyzer or engine.analyzer
    words = surface_words(index, analyzer, terms)
    out = []
    for term in terms:
        word = words[term].lower()
        out.append(f"topic:{word if _topic_term(analyzer, word) == term else term}")
    return out


def parse_tag(tag: str) -> tuple[str, str]:
    """('tool', 'bash') from 'tool:bash'; ValueError for a tag without a kind or value."""
    kind, _, value = tag.strip().partition(":")
    if kind not in ("provider", "tool", "ext", "outcome", "topic") or not value:
        raise ValueError(f"{tag!r}: a tag is provider:, tool:, ext:, outcome: or topic: and a value "
                         "(tool:bash, ext:py, outcome:test-run, topic:checkout)")
    return kind, value.lower()


def _epoch(moment) -> float:
    return moment.timestamp() if hasattr(moment, "timestamp") else 0.0


def matching_sessions(summaries, wanted: list[str], engine=None, *, candidates: int = 200) -> set[str]:
    """Session ids whose tags hold every one of `wanted` (AND). `summaries` carry `tags` (as
    `carto sessions` computes them). A `topic:` tag is looked up in the index (`engine`): only
    sessions whose documents hold the term are candidates (the `candidates` newest), each then
    asked for its topics."""
    parsed = [parse_tag(tag) for tag in wanted]
    plain = {f"{k}:{v}" for k, v in parsed if k != "topic"}
    pool = {s["session_id"]: s for s in summaries if plain <= set(s.get("tags") or ())}
    for kind, value in parsed:
        if kind != "topic" or not pool:
            continue
        if engine is None:
            return set()
        from carto_core.search.related import _sessions_of

        index = engine.index
        term = _topic_term(index.analyzer or engine.analyzer, value)
        holders = _sessions_of(index, index.own_docs(term))
        ordered = sorted((sid for sid in holders if sid in pool),
                         key=lambda sid: (_epoch(pool[sid].get("ended")), sid), reverse=True)[:candidates]
        pool = {sid: pool[sid] for sid in ordered if term in topic_terms(engine, sid)}
    return set(pool)
