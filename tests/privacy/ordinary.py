"""Ordinary developer text that holds no credential: what redaction must leave alone.

Generated (seeded) in the categories agents produce all day: git and docker output (digests,
SHAs), uuids, package integrity hashes, base64 images, test names, metrics and reports, config
that merely names secrets, and the near misses of each credential family (a port after `-P`,
`user/repo@v4`, a public JWK, a certificate body, `key-<md5>`, `pass_rate: 97.25%`).
"""

from __future__ import annotations

import base64
import hashlib

from tests.privacy.shapes import ALNUM, HEX, Gen


def corpus(seed: int = 7) -> list[str]:
    g = Gen(seed)
    sha = lambda: g.s(HEX, 40)  # noqa: E731
    out: list[str] = []
    # git
    out += [
        f"commit {sha()}\nAuthor: Dana Reyes <dana@example.com>\nDate:   Tue Mar 3 10:12:44 2026 +0100\n\n    fix token refresh race",
        f"Ran: git checkout {sha()[:7]} && git cherry-pick {sha()}",
        f"[main {sha()[:7]}] test: cover the password reset flow\n 3 files changed, 41 insertions(+), 7 deletions(-)",
        f"Merge pull request #4821 from acme/feature/auth-middleware\n\n{sha()}",
        f"git log --oneline -3\n{sha()[:9]} bump deps\n{sha()[:9]} secrets: read from the vault agent\n{sha()[:9]} key rotation docs",
        f"remote: Resolving deltas: 100% (12/12), completed with 4 local objects.\nTo github.com:acme/api.git\n   {sha()[:7]}..{sha()[:7]}  main -> main",
        f"index {sha()[:12]}..{sha()[:12]} 100644\n--- a/src/auth/session.py\n+++ b/src/auth/session.py",
        "git push -u origin feature/x:feature/x",
        f"Your branch is ahead of 'origin/main' by 2 commits. HEAD is now at {sha()[:7]} keys: sort before hashing",
    ]
    # docker, images, digests
    out += [
        f"docker pull ghcr.io/acme/api@sha256:{g.s(HEX, 64)}",
        f"Digest: sha256:{g.s(HEX, 64)}\nStatus: Downloaded newer image for postgres:16",
        f"image: redis:7-alpine@sha256:{g.s(HEX, 64)}",
        f" => [internal] load metadata for docker.io/library/python:3.12-slim   1.2s\n => sha256:{g.s(HEX, 64)} 29.13MB / 29.13MB",
        f"CONTAINER ID   IMAGE   COMMAND   CREATED\n{g.s(HEX, 12)}   nginx   \"/docker-entrypoint.…\"   2 minutes ago",
        "docker run -u 1000:1000 -p 8080:80 -e LOG_LEVEL=debug nginx",
    ]
    # uuids and ids
    for _ in range(6):
        out.append(f"{{\"session_id\": \"{g.uuid()}\", \"event_id\": \"evt-{g.s(HEX, 16)}\", \"request_id\": \"{g.uuid()}\"}}")
    out += [
        f"Read /home/dev/.claude/projects/-src-app/{g.uuid()}.jsonl",
        f"x-request-id: {g.uuid()}\ntraceparent: 00-{g.s(HEX, 32)}-{g.s(HEX, 16)}-01",
        f"trace_id={g.s(HEX, 32)} span_id={g.s(HEX, 16)} sampled=true",
        f"idempotency_key: {g.uuid()}",
        f"correlationId: {g.uuid()}",
    ]
    # integrity hashes, lockfiles, checksums
    for _ in range(3):
        digest = base64.b64encode(hashlib.sha512(g.r.randbytes(16)).digest()).decode()
        out.append(f"\"integrity\": \"sha512-{digest}\"")
    out += [
        f"github.com/spf13/cobra v1.8.0 h1:{base64.b64encode(g.r.randbytes(32)).decode()}",
        f"<script src=\"https://cdn.example.com/lib.js\" integrity=\"sha384-{base64.b64encode(g.r.randbytes(48)).decode()}\" crossorigin=\"anonymous\"></script>",
        f"{g.s(HEX, 64)}  dist/carto-0.9.0-py3-none-any.whl",
        f"md5sum: {g.s(HEX, 32)}  backup.tar.gz",
        f"resolved \"https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz#{g.s(HEX, 40)}\"",
        f"etag: W/\"{g.s(HEX, 32)}\"",
        f"Cache key: node-modules-{g.s(HEX, 64)}",
    ]
    # base64 images and blobs
    for n in (300, 600):
        out.append(f"data:image/png;base64,{base64.b64encode(g.r.randbytes(n)).decode()}")
    out.append(f"background: url(data:image/svg+xml;base64,{base64.b64encode(b'<svg xmlns=' + g.r.randbytes(120)).decode()})")
    # test names and runs
    out += [
        "tests/auth/test_login.py::test_password_reset_token_expires_after_one_hour PASSED",
        "FAILED tests/test_api.py::test_missing_api_key_returns_401 - AssertionError: 200 != 401",
        "test_secret_rotation_keeps_old_key_valid_for_grace_period ... ok",
        "✓ should reject an expired session token (12 ms)",
        "=== RUN   TestAuthMiddleware_RejectsBadToken\n--- PASS: TestAuthMiddleware_RejectsBadToken (0.00s)",
        "ok  	github.com/acme/api/internal/keys	0.412s	coverage: 87.5% of statements",
        "test_hmac_key_derivation (tests.test_crypto.KeyTests) ... ok",
        "PASS src/auth/__tests__/passwordPolicy.test.ts (5.2 s)",
    ]
    # metrics and reports
    out += [
        "pass_rate: 97.25%", "auth_method: oauth2", f"key-{g.s(HEX, 32)}", "secret_version=v17beta3",
        "pass_rate=0.9725 fail_rate=0.0275 runs=400", "auth_mode: saml", "token_count: 1532",
        "tokens_used=48213 max_tokens=4096", "password_min_length: 12", "secret_count: 0",
        "key_rotation_days: 90", "Password strength: strong", "auth_latency_ms p50=12.4 p95=48.9 p99=113.0",
        "passed: 412, failed: 3, skipped: 7", "credential_cache_hit_ratio: 0.83",
        "secret_scan: clean (0 findings)", "token_bucket_capacity = 500", "key_size=4096",
        "pass@1 = 0.614, pass@10 = 0.872", "auth_provider: github", "secretsManager.version: 3",
        "api_key_header: X-API-Key", "session_timeout: 30m", "cookie_max_age: 86400",
        "hmac_algorithm = sha256", "signing_algorithm: RS256", "key_type: ed25519",
    ]
    # config that names secrets without holding one
    out += [
        "password: ${DB_PASSWORD}", "API_TOKEN=${{ secrets.API_TOKEN }}", "secret_key = os.environ[\"SECRET_KEY\"]",
        "password_file: /run/secrets/db_password", "--password-file /etc/app/pw", "token: !vault app/token",
        "ldapsearch -x -W -D cn=admin,dc=ex -b dc=ex", "smbclient -L //nas -N", "smbclient //srv/share -U guest",
        "htpasswd -c /etc/nginx/.htpasswd admin", "http -a admin GET :8080/api", "psql -h db -p 5432 -U app orders",
        "mysql -h db -P 3306 -u app -p", "ssh -p 2222 deploy@bastion", "sqlcmd -S db -E -Q \"select 1\"",
        "keytool -list -keystore cacerts", "zip -r site.zip public/", "uses: actions/checkout@v4",
        "npm i @types/node@20.11.5 lodash/fp@4", "git clone git@github.com:acme/api.git", "see ~/.pgpass and ~/.netrc",
        "primary_key: true", "cache_key = f\"user:{user_id}:profile\"", "sort_key: created_at",
        "public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + g.s(ALNUM, 43) + " dev@laptop",
        "kid: 2026-03-01", "Cookie: theme=dark; lang=en-GB", "GET /api/items?code=200&page=2",
        "GET /search?key=value&q=shoes", "auth: true", "secret: false", "session_id: null",
        "requests.get(url, auth=auth)", "auth=(user, password)", "login(username, password)",
        "define('WP_DEBUG', false);", "db:5432:app", "10:30:00:12:45", "sqlplus /nolog",
        "AUTH_METHOD=oauth2", "SECRET_VERSION=v17beta3", "KEY_ALIAS=app-release",
        "Set-Cookie: lang=en; Path=/; SameSite=Lax", "token_type: Bearer", "grant_type=client_credentials",
    ]
    # near misses of key material and vendor shapes
    cert = base64.b64encode(bytes.fromhex("308203a130820289a003020102") + g.r.randbytes(600)).decode()
    out.append("\n".join(cert[i:i + 64] for i in range(0, 320, 64)) + "\n-----END CERTIFICATE-----")
    out.append("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + g.s(ALNUM, 20) + "\n-----END PUBLIC KEY-----")
    out.append(f'{{"kty": "RSA", "kid": "2026", "use": "sig", "n": "{g.b64url(256)}", "e": "AQAB"}}')
    out.append(f"apiVersion: v1\nkind: ConfigMap\ndata:\n  app.properties: {base64.b64encode(b'feature.x=true').decode()}")
    out.append(f"The PR description mentions pk.eyJ but no token; see docs/mapbox.md")
    out.append(f"key{g.s('abcdefghijklmnopqrstuvwxyz', 14)} is not a key")
    out.append("s.AbCdEfGhIjKlMnOpQrStUvWx is 24 letters")
    out.append(f"https://teams.microsoft.com/l/channel/19%3a{g.s(HEX, 32)}%40thread.tacv2/General")
    out.append("See https://learn.microsoft.com/azure/azure-functions/function-keys-how-to?code=example")
    out.append(f"sessionid cookie name is configurable (SESSION_COOKIE_NAME = \"sessionid\")")
    out.append(f"Logs: {g.s(ALNUM, 8)}_{g.s('abcdefghijklmnopqrstuvwxyz', 30)}")
    out.append("test_handles_SomethingVeryLongCamelCaseIdentifierName2 ok")
    out.append("class HttpRequestAuthenticationMiddlewareFactoryProvider2")
    out.append(f"version: 1.2.3+build.{g.s(HEX, 7)}")
    # identifiers and commands shaped like the families' matches (each guard's negative)
    out += ["api_GetUserProfileByIdV2RequestHandler42 registered", "fn-UploadS3MultipartPartsInParallelV2x64()",
            "test_ParseHttpResponseHeaders2024Utf8Json PASSED", "htpasswd -c .htpasswd admin 2>/dev/null",
            "MdFormatterRegistryDefault.render.convert_markdown_to_html_safely(doc)", "salt: abcabcabc123123123",
            "kind: Secret\nmetadata:\n  name: dbcredentials\n  namespace: production\ntype: Opaque",
            "seed: run2024010100000000", "APP_SALT=testsalt1testsalt2",
            "GET /docs?key=getting-started-installation-guide HTTP/1.1"]
    cert_pem = "-----BEGIN CERTIFICATE-----\n" + cert[:128] + "\n-----END CERTIFICATE-----\n"
    out.append("clusters:\n- cluster:\n    certificate-authority-data: " + base64.b64encode(cert_pem.encode()).decode()
               + "\n    server: https://10.0.0.1:6443")
    return out
