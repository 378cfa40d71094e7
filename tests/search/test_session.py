from carto_core.model.session import (
    SESSION_CHAIN,
    current_session_id,
    detect_provider,
    safe_session_id,
    session_source,
)


def test_chain_order_first_resolved_wins():
    env = {var: f"id-{i}" for i, var in enumerate(SESSION_CHAIN)}
    for position, var in enumerate(SESSION_CHAIN):
        assert session_source(env) == (f"id-{position}", var)
        env[var] = "unknown"  # unresolved values do not count: fall through to the next
    assert current_session_id(env) == ""


def test_chain_names_exact():
    assert SESSION_CHAIN == ("CARTO_SESSION_ID", "CARTOGRAPHER_SESSION_ID", "CLAUDE_SESSION_ID",
                             "CLAUDE_CODE_SESSION_ID", "CODEX_SESSION_ID")


def test_provider_detection():
    assert detect_provider({}) == "unknown"
    assert detect_provider({"CLAUDE_CODE_SESSION_ID": "x"}) == "claude"
    assert detect_provider({"CODEX_SESSION_ID": "x"}) == "codex"
    assert detect_provider({"CODEX_HOME": "/h/.codex"}) == "codex"
    assert detect_provider({"CLAUDE_CODE_SESSION_ID": "x", "CARTO_PROVIDER": "Hermes"}) == "hermes"
    # An explicit carto session with Claude's variable also set is still Claude's session.
    assert detect_provider({"CARTO_SESSION_ID": "a", "CLAUDE_CODE_SESSION_ID": "b"}) == "claude"


def test_unsafe_session_ids_cannot_name_files():
    assert safe_session_id("5a1e0000-aaaa-4000-8000-00000000000a")
    for bad in ("../etc/passwd", "a/b", "..", "", "x" * 300):
        assert not safe_session_id(bad)
