"""The redactor: the credential corpus gate, kinds, keys at every depth, and the properties
(idempotent; the needle prefilter never changes what is redacted)."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.privacy import redact
from carto_core.privacy.redact import Redactor, add_pattern, redact_row

CORPUS = json.loads((Path(__file__).parent / "data" / "secrets_corpus.json").read_text("utf-8"))
POSITIVES = CORPUS["positives"]
NEGATIVES = CORPUS["negatives"]


def test_the_corpus_is_the_size_the_issue_asks_for():
    assert len(POSITIVES) >= 60 and len(NEGATIVES) >= 60
    assert len({p["context"] for p in POSITIVES}) >= 15  # env, yaml, json, toml, cli, url, pem...


def test_corpus_catch_rate_and_false_positive_rate():
    redactor = Redactor()
    missed = [p["text"] for p in POSITIVES if p["secret"] in redactor.text(p["text"])]
    flagged = [n["text"] for n in NEGATIVES if redactor.text(n["text"]) != n["text"]]
    catch = 1 - len(missed) / len(POSITIVES)
    false_positive = len(flagged) / len(NEGATIVES)
    assert catch >= 0.99, missed
    assert false_positive <= 0.01, flagged


@pytest.mark.parametrize("case", POSITIVES, ids=lambda p: f"{p['kind']}-{p['context']}")
def test_each_shape_is_replaced_by_its_kind(case):
    out, kinds = Redactor().scan(case["text"])
    assert case["secret"] not in out
    assert case["kind"] in kinds and f"[REDACTED:{case['kind']}]" in out


@pytest.mark.parametrize("case", NEGATIVES, ids=lambda n: n["context"])
def test_each_true_negative_is_unchanged(case):
    assert Redactor().text(case["text"]) == case["text"]


@pytest.mark.parametrize("prefix", ["AKIA", "ASIA", "ABIA", "ACCA", "A3T7"])
def test_every_aws_key_id_prefix(prefix):
    text = f"creds {prefix}{'Q7' * 8} here"
    assert Redactor().text(text) == "creds [REDACTED:aws-access-key] here"


def test_a_prefixed_key_name_is_a_secret_name():
    # issue 14: `\b` after `_` never matched, so `API_TOKEN=` and `DB_PASSWORD=` escaped.
    out = Redactor().text("API_TOKEN=tok3nValue9 DB_PASSWORD=hunter2 x_api_key: 'q9w8e7r6t5'")
    assert out == ("API_TOKEN=[REDACTED:secret-assignment] DB_PASSWORD=[REDACTED:password] "
                   "x_api_key: '[REDACTED:secret-assignment]'")


def test_the_rest_of_a_text_survives_around_a_secret():
    text = "deploy: ghp_" + "Z9" * 18 + " then sk-ant-api03-" + "k" * 30 + " done"
    assert Redactor().text(text) == "deploy: [REDACTED:github-token] then [REDACTED:anthropic-key] done"


def test_url_credentials_keep_user_and_host():
    out = Redactor().text("postgres://app:p@ss@w0rd@db.example.com:5432/app and redis://:pw9secret@cache:6379")
    assert out == ("postgres://app:[REDACTED:url-password]@db.example.com:5432/app and "
                   "redis://:[REDACTED:url-password]@cache:6379")


def test_authorization_keeps_its_scheme():
    redactor = Redactor()
    assert redactor.text("Authorization: Bearer abc123def456ghi") == "Authorization: Bearer [REDACTED:bearer]"
    assert redactor.text("Authorization: Basic dXNlcjpwYXNzd29yZA==") == "Authorization: Basic [REDACTED:basic-auth]"
    assert redactor.text('Authorization: Digest username="u", response="a1b2c3d4"\nnext line') == \
        "Authorization: Digest [REDACTED:authorization]\nnext line"


def test_nested_values_keys_and_order():
    row = {"event_id": "e", "nested": {"cmd": ["x", "token=abcd1234efgh"]}, "n": 3,
           "env": {"API_TOKEN": "q1w2e3r4t5", "HOME": "/home/u"}, "ghp_" + "k" * 36: 1}
    out = redact_row(row)
    assert list(out) == ["event_id", "nested", "n", "env", "[REDACTED:github-token]"]
    assert out["nested"]["cmd"][1] == "token=[REDACTED:secret-assignment]"
    assert out["env"] == {"API_TOKEN": "[REDACTED:secret-assignment]", "HOME": "/home/u"}
    assert out["n"] == 3 and row["nested"]["cmd"][1] == "token=abcd1234efgh"  # input untouched


def test_values_under_secret_named_keys():
    out = redact_row({"password": "hunter2", "Authorization": "Bearer zz9yy8xx7", "author": "Jane Doe",
                      "key_insight": "cache by hash", "max_tokens": "4096", "token_url": "https://x/token",
                      "dbPass": "Sw0rdfish!", "compass": "north-by-north"})
    assert out == {"password": "[REDACTED:password]", "Authorization": "Bearer [REDACTED:bearer]",
                   "author": "Jane Doe", "key_insight": "cache by hash", "max_tokens": "4096",
                   "token_url": "https://x/token", "dbPass": "[REDACTED:password]", "compass": "north-by-north"}


def test_two_keys_that_redact_alike_are_both_kept():
    out = redact_row({"ghp_" + "a1" * 18: 1, "ghp_" + "b2" * 18: 2})
    assert sorted(out.values()) == [1, 2]


def test_kinds_are_counted_without_keeping_values():
    counts = Redactor().kinds_in({"a": ["AKIA" + "B" * 16, "AKIA" + "C" * 16], "password": "hunter2"})
    assert counts == {"aws-access-key": 2, "password": 1}


def test_plugins_and_config_extend_the_patterns(tmp_path, monkeypatch):
    config = tmp_path / "c" / "carto"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('[redact]\npatterns = ["CUST-[0-9]{5}", "(unclosed"]\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "c"))
    monkeypatch.setattr(redact, "_default", None)
    add_pattern("corp-id", r"CORP-[0-9]{6}")
    out = redact_row({"summary": "ticket CORP-123456 for CUST-00042"})["summary"]
    assert out == "ticket [REDACTED:corp-id] for [REDACTED:config-1]"


def test_a_standalone_redactor():
    r = Redactor([("x", "secret")])
    assert r.text("a secret b") == "a [REDACTED:x] b" and r.kinds == ["x"]


PIECES = ["ghp_" + "a1" * 18, "sk-ant-" + "b" * 20, "AKIA" + "C" * 16, "password=hunter22", "Bearer abcdefgh12",
          "https://u:pw@host/x", "token: zz9zzz", "eyJabcdefghij.eyJabcdefghij.abcdefghij", "npm_" + "d" * 36,
          "plain words", "api key", "PassWord : 'secretvalue'", "Token=abcdef1", "İstanbul token=xyz12",
          'API_KEY: "qwerty123"', "auth-token=zzzz9", "Authorization: Basic dXNlcjpwYXNz",
          "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----", "mysql -pS3cret", "--token x9y8z7",
          "AccountKey=abc+def/ghi==;", "[REDACTED:jwt]", "?sig=abcdefghijklmnop1234", "\\n", '"', "'", "=", ":"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=8), st.sampled_from([" ", "", "\n"]))
def test_the_prefilter_never_changes_what_is_redacted(parts, joiner):
    text = joiner.join(parts)
    assert Redactor().text(text) == Redactor(prefilter=False).text(text)
    long = ("filler words " * 40).join(parts)
    assert Redactor().text(long) == Redactor(prefilter=False).text(long)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=8))
def test_redaction_is_idempotent(parts):
    # `carto repair redact` runs the redactor over rows that are already redacted.
    once = Redactor().text(" ".join(parts))
    assert Redactor().text(once) == once


def test_a_cut_never_keeps_half_a_credential():
    from carto_core.capture.shell import ran_summary
    from carto_core.privacy.redact import clip

    token = "ghp_" + "Q7" * 18
    command = "echo " + "x" * 170 + " " + token  # the 200-byte cut falls inside the token
    assert "ghp_Q7" not in ran_summary(command)
    assert clip("y" * 90 + " " + token, 100, "…") == "y" * 90 + " [REDACTE…"
    assert clip("short text", 100) == "short text"


def test_hook_log_lines_are_redacted(tmp_path):
    from carto_core.logio.home import Home
    from carto_core.capture.hookpath import log_problem

    home = Home(tmp_path / "home")
    log_problem("claude PostToolUse: transcript_path /x?token=Zq8Trv31kLmP does not exist", home)
    text = (home.state / "hook.log").read_text()
    assert "Zq8Trv31kLmP" not in text and "token=[REDACTED:secret-assignment]" in text


def test_a_jwt_cut_before_its_signature_is_still_a_jwt():
    head, claims = "eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiIxMjM0NTY3ODkwIiwicm9sZSI6ImFkbWluIn0"
    assert Redactor().text(f"token {head}.{claims}") == "token [REDACTED:jwt]"


# --- tests that make the rules and their guards load-bearing (mutation testing) -----------


def test_every_builtin_rule_is_load_bearing_on_the_corpus():
    """Removing any one rule leaves some corpus credential (or tuned shape, tests/privacy) unredacted or relabelled: no rule
    is dead weight, and a rule that stops matching (a mutated prefix, a broken regex) fails."""
    from carto_core.privacy.redact import BUILTIN_RULES

    from tests.privacy.shapes import TUNED

    texts = [p["text"] for p in POSITIVES] + [c["text"] for make in TUNED.values() for c in make()]
    full = [Redactor().text(t) for t in texts]
    for index, rule in enumerate(BUILTIN_RULES):
        without = Redactor(builtin=False)
        without._rules = [r for i, r in enumerate(BUILTIN_RULES) if i != index]
        assert any(without.text(t) != f for t, f in zip(texts, full)), (rule.kind, rule.source[:60])


# One made-up token per alternative of every multi-prefix rule (the AWS `ASIA` mutant of issue
# 14 survived because only `AKIA` was tested).
PREFIXES = [
    *[("github-token", f"gh{c}_" + "Ab3" * 12) for c in "pousr"], ("github-token", "github_pat_11AB" + "c4" * 20),
    *[("gitlab-token", f"{p}-" + "Xy7_" * 6) for p in ("glpat", "gldt", "glrt", "glptt", "glft", "glimt", "glagent",
                                                         "gloas", "glsoat", "glffct", "glcbt", "glwt")],
    ("gitlab-token", "GR1348941" + "aB9" * 8),
    *[("slack-token", f"xox{c}-1234567890-" + "Qw8" * 5) for c in "abposre"], ("slack-token", "xapp-1-A0B1C2D3E4F5-99"),
    *[("stripe-key", f"{p}_{e}_" + "Zx5" * 8) for p in ("sk", "rk") for e in ("live", "test", "prod")],
    ("stripe-key", "whsec_" + "Mn4" * 8),
    *[("vercel-token", f"vc{c}_" + "Lk2" * 9) for c in "pirak"],
    *[("digitalocean-token", f"do{c}_v1_" + "a1" * 32) for c in "opr"],
    *[("shopify-token", f"shp{p}_" + "0f" * 16) for p in ("at", "ca", "pa", "ss")],
    ("atlassian-token", "ATATT3xFfGF0" + "Tg6_" * 14), ("atlassian-token", "ATBB" + "Hj3" * 10),
    ("sentry-token", "sntrys_" + "eyJ0" * 12), ("sentry-token", "sntryu_" + "9c" * 32),
    ("supabase-key", "sbp_" + "4e" * 20), ("supabase-key", "sbp_oauth_" + "4e" * 20), ("supabase-key", "sb_secret_" + "Pq7" * 8),
    ("linear-key", "lin_api_" + "Rs3" * 12), ("linear-key", "lin_oauth_" + "b7" * 32),
    ("huggingface-token", "hf_" + "Vw2" * 11), ("huggingface-token", "api_org_" + "Vw2" * 11),
    ("grafana-token", "glsa_" + "Ab1" * 10 + "Cd_" + "0a1b2c3d"), ("grafana-token", "glc_" + "eyJv" * 10),
    ("google-oauth-token", "ya29.a0" + "Fg5" * 10), ("google-oauth-token", "1//0" + "gH6" * 12),
    ("google-client-secret", "GOCSPX-" + "Jk8" * 9), ("google-api-key", "AIza" + "Sy" + "Tu9" * 11),
    ("dockerhub-token", "dckr_pat_" + "Op1" * 9), ("dockerhub-token", "dckr_oat_" + "Op1" * 9),
    ("vault-token", "hvs." + "Cx4" * 31), ("vault-token", "hvb." + "Cx4" * 31),
    ("newrelic-key", "NRAK-" + "ABC123" * 5), ("newrelic-key", "NRII-" + "ABC123" * 5), ("newrelic-key", "NRJS-" + "abc123" * 4),
    ("planetscale-token", "pscale_oauth_" + "Zz9" * 12), ("planetscale-token", "pscale_pw_" + "Zz9" * 12),
    ("square-token", "sq0csp-" + "Bn7" * 8), ("fly-token", "fm2_" + "Qa1" * 40),
    *[("doppler-token", f"dp.{p}." + "Rt5" * 14) for p in ("pt", "st", "sa", "said", "ct", "scim", "audit")],
    *[("doppler-token", f"dp.st.{c}." + "Rt5" * 14) for c in ("dev", "prd", "ci_backend-2")],
    *[("circleci-token", f"CCI{p}_" + "Ab3" * 7 + "x_" + "0f" * 20) for p in ("PAT", "PRJ")],
    ("buildkite-token", "bkua_" + "9e" * 20),
    *[("langsmith-key", f"lsv2_{p}_" + "7a" * 16 + "_" + "c3" * 5) for p in ("pt", "sk")],
    *[("plaid-token", f"access-{e}-8ab976e6-64bc-4b38-98f7-731e7a349970")
      for e in ("sandbox", "development", "production")],
    ("facebook-token", "EAAG" + "Zx9" * 40),
]


@pytest.mark.parametrize("kind,token", PREFIXES, ids=lambda v: v if len(v) < 24 else v[:16])
def test_every_prefix_of_every_provider_rule(kind, token):
    assert Redactor().text(f"use {token} now") == f"use [REDACTED:{kind}] now"


def test_thresholds_of_the_secret_named_key_path():
    r = Redactor()
    assert r.row({"password": "abc"}) == {"password": "[REDACTED:password]"}
    assert r.row({"password": "ab"}) == {"password": "ab"}  # too short to be one
    long_key = "x" * 72 + "_password"  # 81 characters: a sentence, not a key name
    assert r.row({long_key: "hunter22"}) == {long_key: "hunter22"}
    assert r.row({"x" * 71 + "_password": "hunter22"}) == {"x" * 71 + "_password": "[REDACTED:password]"}
    assert r.row({"db_pass": "plainword"}) == {"db_pass": "plainword"}  # weak key: must look made
    assert r.row({"db_pass": "pl4inword"}) == {"db_pass": "[REDACTED:password]"}
    assert r.row({"api_token": "12345"}) == {"api_token": "12345"}  # a count, not a password
    assert r.row({"pin_password": "12345"}) == {"pin_password": "[REDACTED:password]"}
    assert r.row({"AccountKey": "Zm9vYmFyYmF6cXV4"}) == {"AccountKey": "[REDACTED:azure-key]"}
    assert r.row({"Authorization": "Digest a=1"}) == {"Authorization": "Digest [REDACTED:authorization]"}
    assert r.row({"Authorization": "Bearer"}) == {"Authorization": "Bearer"}
    assert r.row({"authorization": "$TOKEN"}) == {"authorization": "$TOKEN"}
    assert r.row({"token": ["x", {"api_key": "Qw3rty99"}]}) == {"token": ["x", {"api_key": "[REDACTED:secret-assignment]"}]}


def test_found_and_sink_collect_from_keys_values_and_lists():
    r = Redactor()
    found, sink = [], []
    key = "ghp_" + "Kk7" * 12
    out = r.value({key: [{"password": "hunter22"}, "token=Zz9Yy8Xx7"]}, found, sink)
    assert list(out) == ["[REDACTED:github-token]"]
    assert sorted(found) == ["github-token", "password", "secret-assignment"]
    assert sorted(sink) == sorted([key, "hunter22", "Zz9Yy8Xx7"])


def test_colliding_redacted_keys_get_distinct_names():
    out = redact_row({"ghp_" + "a1" * 18: 1, "ghp_" + "b2" * 18: 2})
    assert list(out) == ["[REDACTED:github-token]", "[REDACTED:github-token] #1"]


def test_guards_of_the_context_rules():
    r = Redactor()
    # curl -u only in an HTTP client's command line
    assert r.text("curl -u admin:S3cretPw https://x") == "curl -u admin:[REDACTED:basic-auth] https://x"
    assert r.text("docker run -u app:Grp5ecret img") == "docker run -u app:Grp5ecret img"
    assert r.text("wget --user=bob:Pa55word9 x") == "wget --user=bob:[REDACTED:basic-auth] x"
    # Basic: only base64 that decodes to user:password
    assert r.text("x Basic dXNlcjpwYXNzd29yZA== y") == "x Basic [REDACTED:basic-auth] y"
    assert r.text("x Basic QmFzaWNVc2FnZUd1aWRl y") == "x Basic QmFzaWNVc2FnZUd1aWRl y"  # no colon inside
    # XML: the tag names the secret, not its file or its length
    assert r.text("<password>Hunter22</password>") == "<password>[REDACTED:password]</password>"
    assert r.text("<apiToken>Qq9Ww8</apiToken>") == "<apiToken>[REDACTED:secret-assignment]</apiToken>"
    assert r.text("<password_file>/run/pw</password_file>") == "<password_file>/run/pw</password_file>"
    assert r.text("<token>true</token>") == "<token>true</token>"
    # a user-only URL token needs entropy and a digit
    assert r.text("https://" + "a" * 24 + "@host/x") == "https://" + "a" * 24 + "@host/x"
    assert r.text("https://Ab3dE5gH7jK9mN1pQ3sT@host/x") == "https://[REDACTED:url-token]@host/x"


def test_entropy_is_shannons():
    from carto_core.privacy.redact import entropy

    assert entropy("") == 0.0 and entropy("aaaa") == 0.0
    assert entropy("ab") == pytest.approx(1.0) and entropy("abcd") == pytest.approx(2.0)


def test_guard_edges_found_by_mutation_testing():
    r = Redactor()
    # the HTTP client must be on the same line as -u (a real or a JSON-escaped line break)
    assert r.text("curl https://x\ndocker run -u app:Grp5ecret img") == "curl https://x\ndocker run -u app:Grp5ecret img"
    assert r.text("curl https://x\\ndocker run -u app:Grp5ecret img") == "curl https://x\\ndocker run -u app:Grp5ecret img"
    assert r.text("echo go\ncurl -u ops:Grp5ecret x") == "echo go\ncurl -u ops:[REDACTED:basic-auth] x"
    # Basic credentials whose base64 lost its padding still decode
    assert r.text("x Basic dXNlcjpwYXNzMQ y") == "x Basic [REDACTED:basic-auth] y"
    # a namespaced tag is judged by its local name
    assert r.text("<d:password_file>/etc/pw</d:password_file>") == "<d:password_file>/etc/pw</d:password_file>"
    assert r.text("<d:password>Hunter22</d:password>") == "<d:password>[REDACTED:password]</d:password>"
    # the URL-user token threshold is 3 bits a character, inclusive
    assert r.text("https://" + "abcd1234" * 3 + "@host/x") == "https://[REDACTED:url-token]@host/x"
    assert r.text("https://" + "abc1" * 6 + "@host/x") == "https://" + "abc1" * 6 + "@host/x"


def test_authorization_parameters_end_at_the_line_and_code_is_not_a_credential():
    r = Redactor()
    digest = 'Authorization: Digest username="u", response="a1b2c3d4"'
    assert r.text(digest + "\r\nHost: x") == "Authorization: Digest [REDACTED:authorization]\r\nHost: x"
    assert r.text('{"h": "' + digest.replace('"', '\\"') + '\\nHost: x"}') == \
        '{"h": "Authorization: Digest [REDACTED:authorization]\\nHost: x"}'
    assert r.text(digest + "\\r\\nHost: x") == "Authorization: Digest [REDACTED:authorization]\\r\\nHost: x"
    assert r.text("authorization = self.headers.get('authorization')") == \
        "authorization = self.headers.get('authorization')"
    assert r.text("authorization = request_headers_authorization") == "authorization = request_headers_authorization"
    assert r.text("Authorization: BEARER zz9yy8xx7ww6") == "Authorization: BEARER [REDACTED:bearer]"
    encoded = "AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid%2BULvsea4JtiGRiSD%3DEUifiRBkKG5E2XzMDjR"
    assert r.text(f"the x api bearer {encoded} works") == "the x api bearer [REDACTED:bearer] works"
    assert r.text("Authorization: Custom-Scheme Zq8TrvX31kLmPw09") == \
        "Authorization: Custom-Scheme [REDACTED:authorization]"
    assert r.text("Authorization: the user must log in first") == "Authorization: the user must log in first"


def test_a_clipped_text_is_not_scanned_twice_but_is_still_redacted(monkeypatch):
    from carto_core.privacy import redact as module

    token = "ghp_" + "Q7" * 18
    clipped = module.clip("z " * 600 + token + " tail " * 400, 2000)  # past the memo's 256
    assert "[REDACTED:github-token]" in clipped and token not in clipped
    calls = []
    monkeypatch.setattr(module.Redactor, "_scan", lambda self, value, sink: calls.append(value) or (value, []))
    assert redact_row({"summary": clipped}) == {"summary": clipped} and calls == []
    assert Redactor().text(clipped) == clipped and calls == [clipped]  # another redactor scans


def _every_needle_rule(redactor: Redactor, lowered: str) -> set[int]:
    """The rules a text can wake, found the slow way: every needle looked for, no gates."""
    runs = redact.long_words(lowered)
    found = set()
    for position, rule in enumerate(redactor._rules):
        if not rule.needles or any(n in (runs if rule.token else lowered) for n in rule.needles):
            found.add(position)
    return found


NEEDLES = sorted({n for rule in redact.BUILTIN_RULES for n in rule.needles})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(NEEDLES), st.sampled_from(list("=:- _./~\n")),
                          st.text(alphabet="abcdefgikmnoprstuwy", max_size=30)), max_size=12),
       st.sampled_from(["", " ", "x"]), st.booleans())
def test_the_needle_gates_wake_exactly_the_rules_whose_needles_occur(parts, joiner, long):
    # Below `_GATED_LENGTH` every needle is looked for; above it, a needle is skipped when a
    # gate it holds (a rarer character, a shorter needle) is absent. Both must be exact.
    redactor = Redactor()
    text = joiner.join(parts)
    if long:
        text = ("filler words " * 45) + text  # past _GATED_LENGTH
    assert (len(text) >= redact._GATED_LENGTH) is long or not long
    assert redactor.candidates(text) == _every_needle_rule(redactor, text)


def test_every_gate_is_held_by_its_needle():
    gated = {needle: gates for needle, _, gates in Redactor()._gated()}
    assert gated["security-token="] == ("=", "-", "token")  # the rarer characters first, then a needle inside
    assert gated["--http-user"] == ("-", "-u") and gated["bearer"] == ()
    for needle, gates in gated.items():
        assert all(gate in needle and gate != needle for gate in gates), needle


def test_an_assignment_is_found_however_far_its_separator_is_from_the_key_word():
    # The scan for a key-name assignment starts _SEPARATOR_REACH before the first separator:
    # the longest stem, 64 name characters, an escaped quote and three spaces reach exactly it.
    prose = "many words of prose before it " * 30
    widest = (prose + "secret" + "a" * 64 + '\\"' + "   " + "= 'Zq8TrvX31kLmPw09'").lower()
    unbounded = redact._STEM_ASSIGNMENT.search(widest)
    assert unbounded.start() == len(prose)
    assert redact.start_assignment(widest) == len(prose) - redact._STEM_BACK
    assert redact.start_assignment(prose + "no separator anywhere") == -1
    assert redact.start_assignment("a:b " + prose + "token=x") == len("a:b " + prose) - redact._STEM_BACK
    far = prose + "db_password   = 'Zq8TrvX31kLmPw09'" + " and more prose" * 3
    assert Redactor().text(far) == prose + "db_password   = '[REDACTED:password]'" + " and more prose" * 3


def test_a_key_given_to_a_client_by_position_goes_and_the_call_stays():
    key = "jza6zNEkT7bwgrGdSy0G4bJ9q5WfFF40h3Lbozyr"
    assert Redactor().text(f'co = cohere.Client("{key}")') == 'co = cohere.Client("[REDACTED:api-key]")'
    assert Redactor().text('QdrantClient("http://localhost:6333")') == 'QdrantClient("http://localhost:6333")'


def test_a_long_value_under_a_secrets_name_goes_whole():
    """A 600-character token under `token:` (a service account's, a kubeconfig's): every
    character of it goes, not the first 400."""
    long = "Ab9" * 200
    assert Redactor().text(f"token: {long}") == "token: [REDACTED:secret-assignment]"
    assert Redactor().text(f'token: "{long}"') == 'token: "[REDACTED:secret-assignment]"'


def test_a_comma_inside_an_unquoted_value_is_part_of_it_a_comma_before_the_next_name_is_not():
    """`pass: Tq8=Wmz4,Yd2Pv9sKr-3h` kept `Yd2Pv9sKr-3h` in clear (the value stopped at the
    comma); a comma before the next `name=` or `name:`, a space or a quote still ends it."""
    assert Redactor().text("pass: Tq8=Wmz4,Yd2Pv9sKr-3h") == "pass: [REDACTED:password]"
    assert Redactor().text("token=Zq8Wm2Lx9Rv4Tn7Pk3Hs,region=eu-west-1") == \
        "token=[REDACTED:secret-assignment],region=eu-west-1"
    assert Redactor().text("password=Rk2v8Ltq9Wz7,host:db1") == "password=[REDACTED:password],host:db1"
    assert Redactor().text("password=Rk2v8Ltq9Wz7, then restart") == \
        "password=[REDACTED:password], then restart"
    # a name before a comma is code's argument, however long (no capital: no machine's value)
    assert Redactor().text("retry(token=lasttoken2024, attempts=3)") == \
        "retry(token=lasttoken2024, attempts=3)"


def test_psql_interpolation_is_a_name_and_a_quoted_value_after_a_colon_is_a_value():
    """psql's `PASSWORD :'app_password'` interpolates a variable; a quoted value right after a
    colon with no space before it, or one that is no name, is still a password."""
    assert Redactor().text("CREATE ROLE app LOGIN PASSWORD :'app_password';") == \
        "CREATE ROLE app LOGIN PASSWORD :'app_password';"
    assert Redactor().text("password:'Xy7kLm2Qz9Tw'") == "password:'[REDACTED:password]'"
    assert Redactor().text("password :'Xy7#kL-m2Qz!'") == "password :'[REDACTED:password]'"


def test_a_box_drawn_table_escaped_as_ascii_json_keeps_its_secret_row_out():
    """Python's json.dumps writes `│` as `\\u2502`: a secrets manager's listing saved that way
    and read back in a tool's output is the same table."""
    import json

    listing = "\u2502 DB_PASSWORD \u2502 Vn7pQ2xL9sKw4Rt8Zb3M \u2502\n\u2502 DB_HOST \u2502 db.internal \u2502"
    escaped = json.dumps(listing)[1:-1]
    assert "\\u2502" in escaped
    out = Redactor().text(escaped)
    assert "Vn7pQ2xL9sKw4Rt8Zb3M" not in out and "db.internal" in out


def test_a_told_value_ends_at_a_comma_before_a_space_not_at_one_inside_it():
    assert Redactor().text("the staging password is Qw7xPz,4mRt^Kv now") == \
        "the staging password is [REDACTED:password] now"
    assert Redactor().text("the staging password is Qw7x#Pz4mRt, then restart it") == \
        "the staging password is [REDACTED:password], then restart it"


def test_an_aws_secret_quoted_inside_a_transcript_line_escaped_three_times_goes():
    secret = "vNhHAj29dqVPBs7Wih5py0v7kU8l1Laz5E//knDF"
    line = 'AWS_SECRET_ACCESS_KEY = "' + secret + '"'
    for _ in range(3):  # a tool result inside an agent's progress line inside a transcript row
        line = json.dumps(line)[1:-1]
        assert secret not in Redactor().text(line), line
