import pytest

from carto_core import redact
from carto_core.redact import Redactor, add_pattern, redact_row

SECRETS = [
    ("github-token", "push with ghp_abcdefghijklmnopqrstuvwxyz0123456789 now"),
    ("github-token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop"),
    ("anthropic-key", "key sk-ant-api03-abcdefghijklmnopqrstuv"),
    ("openai-key", "OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz123456"),
    ("slack-token", "xoxb-123456789012-abcdefghijkl"),
    ("aws-access-key", "AKIAABCDEFGHIJKLMNOP"),
    ("bearer", "curl -H 'Authorization: Bearer abc.def-ghi_jkl123'"),
    ("secret-assignment", "mysql --password=hunter2hunter2"),
    ("secret-assignment", 'export API_KEY="q9w8e7r6t5y4"'),
    ("basic-auth-url", "git clone https://user:s3cretpass@example.com/repo.git"),
    ("private-key", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----"),
]


@pytest.mark.parametrize("kind,text", SECRETS)
def test_credential_shapes_are_redacted(kind, text):
    out = redact_row({"summary": text})["summary"]
    assert f"[REDACTED:{kind}]" in out
    for secret in ("hunter2", "abcdefghijklmnop", "s3cretpass", "MIIE", "AKIAABCDEF", "q9w8e7"):
        assert secret not in out


def test_nested_values_keys_and_order_are_kept():
    row = {"event_id": "e", "nested": {"cmd": ["x", "token=abcd1234efgh"]}, "n": 3}
    out = redact_row(row)
    assert list(out) == ["event_id", "nested", "n"]
    assert out["nested"]["cmd"][1] == "token=[REDACTED:secret-assignment]"
    assert out["n"] == 3 and row["nested"]["cmd"][1] == "token=abcd1234efgh"


def test_ordinary_text_is_untouched():
    text = "Ran: pytest -k password_reset tests/test_auth.py && git commit -m 'fix token refresh'"
    assert redact_row({"summary": text})["summary"] == text


def test_plugins_and_config_extend_the_patterns(tmp_path, monkeypatch):
    config = tmp_path / "c" / "carto"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('[redact]\npatterns = ["CUST-[0-9]{5}"]\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "c"))
    redact._default = None
    add_pattern("corp-id", r"CORP-[0-9]{6}")
    out = redact_row({"summary": "ticket CORP-123456 for CUST-00042"})["summary"]
    assert out == "ticket [REDACTED:corp-id] for [REDACTED:config-1]"


def test_a_standalone_redactor():
    r = Redactor([("x", "secret")])
    assert r.text("a secret b") == "a [REDACTED:x] b" and r.kinds == ["x"]
