"""A sweep of credential shapes and of ordinary developer text, written from the formats' public
documentation (cloud providers' key and connection-string formats, registries' config files,
chat bots' tokens, RFC 7617 basic auth, kubeconfig and docker config), not from the rules or
the other sets. Values are random (seeded), made here; none is a live credential.

Every third case of each list is held out (`HELD_OUT_SHAPES`, `HELD_OUT_ORDINARY`): the rules
were fixed against the other two thirds only, and the held-out third is measured, never tuned
on (docs/performance.md has the figures before and after)."""

from __future__ import annotations

import base64
import hashlib
import json
import string
import uuid

from tests.privacy.shapes import ALNUM, B64, HEX, LOWER_ALNUM, URLSAFE, Gen

UPPER_HEX = "0123456789ABCDEF"


def _case(family: str, text: str, secret: str) -> dict:
    return {"family": family, "text": text, "secret": secret}


def shapes(seed: int = 2027) -> list[dict]:
    g = Gen(seed)
    pw = g.pw
    b64 = lambda n: base64.b64encode(g.r.randbytes(n)).decode()  # noqa: E731
    out: list[dict] = []
    add = lambda family, text, secret: out.append(_case(family, text, secret))  # noqa: E731

    v = g.s(ALNUM + "/+", 40); add("cloud", f"[default]\naws_access_key_id = AKIA{g.s(UPPER_HEX, 16)}\naws_secret_access_key = {v}", v)
    v = "IQoJb3JpZ2luX2Vj" + g.s(B64, 300); add("cloud", f"export AWS_SESSION_TOKEN={v}", v[20:80])
    v = b64(64); add("cloud", f"DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={v};EndpointSuffix=core.windows.net", v)
    v = g.s(URLSAFE, 43); add("cloud", f"https://acmelogs.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01T00:00:00Z&sig={v}%3D", v)
    v = g.s(ALNUM, 3) + "8Q~" + g.s(ALNUM + "_~.-", 34); add("cloud", f"AZURE_CLIENT_SECRET={v}", v)
    v = g.s(LOWER_ALNUM, 52); add("cloud", f"git clone https://build:{v}@dev.azure.com/acme/web/_git/web", v)
    v = base64.b64encode(b":" + g.s(LOWER_ALNUM, 52).encode()).decode(); add("cloud", f"curl -H \"Authorization: Basic {v}\" https://dev.azure.com/acme/_apis/projects", v)
    lines = g.pem_body(bytes.fromhex("308204a40201000282010100"), 700)
    key = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(lines) + "\\n-----END PRIVATE KEY-----\\n"
    add("cloud", '{"type": "service_account", "project_id": "acme-prod", "private_key": "' + key + '", "client_email": "ci@acme-prod.iam.gserviceaccount.com"}', lines[2])
    v = g.s(ALNUM, 14) + ".atlasv1." + g.s(ALNUM, 67); add("cloud", f'credentials "app.terraform.io" {{\n  token = "{v}"\n}}', v)
    v = "dp.st.prd." + g.s(ALNUM, 40); add("cloud", f"doppler run --token {v} -- npm start", v)
    v = g.s(HEX, 32); add("cloud", f"DD_API_KEY={v} datadog-agent run", v)
    v = "NRAK-" + g.s(string.ascii_uppercase + string.digits, 27); add("cloud", f"newrelic.ini: license: {v}", v)

    p = pw(); add("db", f"DATABASE_URL=postgres://orders_app:{p}@db.internal:5432/orders", p)
    p = pw(); add("db", f"mysql://root:{p}@127.0.0.1:3306/shop", p)
    p = pw(); add("db", f"client = MongoClient(\"mongodb+srv://admin:{p}@cluster0.ab1cd.mongodb.net/?retryWrites=true\")", p)
    p = pw(); add("db", f"REDIS_URL=redis://:{p}@cache.internal:6379/0", p)
    p = pw(); add("db", f"celery -A app worker -b amqp://jobs:{p}@rabbit:5672//", p)
    p = pw(); add("db", f"jdbc:postgresql://db:5432/app?user=app&password={p}&ssl=true", p)
    p = pw(); add("db", f"PGPASSWORD={p} psql -h db.internal -U report -d sales", p)
    p = pw(); add("db", f"mysql -u root -p{p} shop < dump.sql", p)
    p = pw(); add("db", f"Server=tcp:sql.acme.net,1433;Database=crm;User ID=crm_app;Password={p};Encrypt=True;", p)

    claims = g.jwt_part({"sub": g.s(HEX, 12), "iat": 1760000000, "scope": "admin"})
    v = g.jwt_part({"alg": "RS256", "typ": "JWT"}) + "." + claims + "." + g.b64url(256); add("jwt", f"Authorization: Bearer {v}", v[-60:])
    v = g.jwt_part({"alg": "HS256"}) + "." + claims + "." + g.b64url(32); add("jwt", f"curl -b 'id_token={v}' https://app/", claims)
    lines = g.pem_body(bytes.fromhex("3082025c02010002818100"), 500)
    add("keymaterial", "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END RSA PRIVATE KEY-----", lines[3])
    body = base64.b64encode(b"openssh-key-v1\x00" + g.r.randbytes(380)).decode()
    lines = [body[i:i + 70] for i in range(0, len(body), 70)]
    add("keymaterial", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END OPENSSH PRIVATE KEY-----", lines[2])
    lines = g.pem_body(bytes.fromhex("307702010104"), 100)
    add("keymaterial", "-----BEGIN EC PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END EC PRIVATE KEY-----", lines[0][10:])
    v = b64(32); add("keymaterial", f"[Interface]\nAddress = 10.0.0.2/32\nPrivateKey = {v}\nListenPort = 51820", v)

    v = "npm_" + g.s(ALNUM, 36); add("registry", f"//registry.npmjs.org/:_authToken={v}", v)
    v = str(uuid.UUID(int=g.r.getrandbits(128), version=4)); add("registry", f"//registry.npmjs.org/:_authToken={v}", v)
    v = base64.b64encode(f"ci:{pw()}".encode()).decode(); add("registry", f"registry=https://npm.acme.net/\n_auth={v}\nalways-auth=true", v)
    v = "pypi-AgEIcHlwaS5vcmc" + g.s(URLSAFE, 140); add("registry", f"[pypi]\n  username = __token__\n  password = {v}", v[20:80])
    p = pw(); add("registry", f"[testpypi]\nrepository = https://test.pypi.org/legacy/\nusername = alice\npassword = {p}", p)
    v = base64.b64encode(f"bob:{pw()}".encode()).decode(); add("registry", '{"auths": {"registry.acme.net": {"auth": "' + v + '"}}}', v)
    p = pw(); add("registry", f"docker login -u bob -p {p} registry.acme.net", p)
    p = pw(); add("registry", f"echo {p} | helm registry login registry.acme.net -u bob --password-stdin", p)

    v = f"xoxb-{g.s(string.digits, 12)}-{g.s(string.digits, 13)}-{g.s(ALNUM, 24)}"; add("chat", f"SLACK_BOT_TOKEN: {v}", v)
    v = f"T{g.s(string.ascii_uppercase + string.digits, 10)}/B{g.s(string.ascii_uppercase + string.digits, 10)}/{g.s(ALNUM, 24)}"
    add("chat", f"curl -X POST -d @msg.json https://hooks.slack.com/services/{v}", v.split("/")[2])
    v = base64.b64encode(g.snowflake().encode()).decode().rstrip("=") + "." + g.s(URLSAFE, 6) + "." + g.s(URLSAFE, 38)
    add("chat", f"client.run('{v}')", v)
    v = g.s(URLSAFE, 68); add("chat", f"https://discord.com/api/webhooks/{g.snowflake()}/{v}", v)
    v = f"{g.r.randint(10**8, 10**10)}:AA{g.s(URLSAFE, 33)}"; add("chat", f"curl https://api.telegram.org/bot{v}/getUpdates", v.split(":")[1])
    v = f"{g.r.randint(10**8, 10**10)}:AA{g.s(URLSAFE, 33)}"; add("chat", f"bot = telebot.TeleBot(\"{v}\")", v.split(":")[1])

    v = "glpat-" + g.s(URLSAFE, 20); add("vcs", f"git remote set-url origin https://oauth2:{v}@gitlab.com/acme/api.git", v)
    v = "GR1348941" + g.s(URLSAFE, 20); add("vcs", f"gitlab-runner register --registration-token {v}", v)
    v = "ATBB" + g.s(ALNUM, 28) + g.s(UPPER_HEX, 8); add("vcs", f"git clone https://alice:{v}@bitbucket.org/acme/site.git", v)
    v = "ATCTT3xFfGN0" + g.s(URLSAFE, 180) + "=" + g.s(UPPER_HEX, 8); add("vcs", f"BITBUCKET_ACCESS_TOKEN={v}", v[20:80])
    v = "github_pat_" + g.s(ALNUM, 22) + "_" + g.s(ALNUM, 59); add("vcs", f"gh auth login --with-token <<< {v}", v)
    v = "ghs_" + g.s(ALNUM, 36); add("vcs", f"https://x-access-token:{v}@github.com/acme/api", v)
    p = pw(); add("vcs", f"https://alice:{p}@git.acme.net\n", p)

    p = pw(); add("auth", f"https://deploy:{p}@registry.acme.net/v2/_catalog", p)
    v = base64.b64encode(f"admin:{pw()}".encode()).decode(); add("auth", f"Authorization: Basic {v}", v)
    v = g.s(HEX, 40); add("auth", f"curl -H 'Authorization: Token {v}' https://api.acme.net/v1/me", v)
    v = g.s(ALNUM, 32); add("auth", f"curl -H \"X-API-Key: {v}\" https://api.acme.net/v1/orders", v)
    v = "00" + g.s(URLSAFE, 40); add("auth", f"Authorization: SSWS {v}", v)
    v = g.s(HEX, 37); add("auth", f"curl -H 'X-Auth-Email: ops@acme.net' -H 'X-Auth-Key: {v}' https://api.cloudflare.com/client/v4/zones", v)

    v = g.s(ALNUM, 50); add("env", f"export FOO_SECRET={v}", v)
    v = g.s(ALNUM + "!@#%^*(-_=+)", 50); add("env", f"export DJANGO_SECRET_KEY='{v}'", v)
    v = "whsec_" + g.s(ALNUM, 32); add("env", f"STRIPE_WEBHOOK_SECRET={v}", v)
    v = g.s(HEX, 32); add("env", f"TWILIO_AUTH_TOKEN={v}", v)
    v = g.s(HEX, 32); add("env", f"ALGOLIA_ADMIN_KEY={v}", v)
    v = "lin_api_" + g.s(ALNUM, 40); add("env", f"linear = LinearClient(\"{v}\")", v)
    p = pw(); add("env", f"ssh-keygen -t ed25519 -N '{p}' -f ~/.ssh/deploy", p)

    v = g.b64url(180); add("kube", f"users:\n- name: admin\n  user:\n    token: {v}", v[:60])
    pem = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(g.pem_body(bytes.fromhex("308204a40201000282010100"), 300)) + "\n-----END RSA PRIVATE KEY-----\n"
    v = base64.b64encode(pem.encode()).decode(); add("kube", f"users:\n- name: admin\n  user:\n    client-key-data: {v}", v[40:100])
    v = "SG." + g.s(URLSAFE, 22) + "." + g.s(URLSAFE, 43); add("vendor", f"smtp://apikey:{v}@smtp.sendgrid.net:587", v)
    v = f"access_token$production${g.s(LOWER_ALNUM, 16)}${g.s(HEX, 32)}"; add("vendor", f"BRAINTREE_ACCESS_TOKEN={v}", v[30:])
    v = "sq0csp-" + g.s(URLSAFE, 43); add("vendor", f"square oauth secret {v}", v)
    v = "EAAA" + g.s(URLSAFE, 60); add("vendor", f"SquareClient(access_token='{v}')", v)
    v = "glsa_" + g.s(ALNUM, 32) + "_" + g.s(HEX, 8); add("vendor", f"grafana service account token {v}", v)
    v = "sk-proj-" + g.s(URLSAFE, 120); add("vendor", f"client = OpenAI(api_key=\"{v}\")", v[:60])
    return out


def ordinary(seed: int = 2028) -> list[str]:
    g = Gen(seed)
    sha = lambda: g.s(HEX, 40)  # noqa: E731
    u = lambda: str(uuid.UUID(int=g.r.getrandbits(128), version=4))  # noqa: E731
    sri = lambda: "sha512-" + base64.b64encode(g.r.randbytes(64)).decode()  # noqa: E731
    return [
        f"commit {sha()}\nMerge: {sha()[:7]} {sha()[:7]}",
        f"git rebase --onto main {sha()[:12]} feature/rotate-keys",
        f"request_id={u()} status=200 duration_ms=41",
        f"\"integrity\": \"{sri()}\"",
        f"resolved \"https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#{sha()}\"",
        f"checksum = \"{g.s(HEX, 64)}\"",
        f"github.com/stretchr/testify v1.9.0 h1:{base64.b64encode(g.r.randbytes(32)).decode()}",
        f"{{file = \"requests-2.32.3-py3-none-any.whl\", hash = \"sha256:{g.s(HEX, 64)}\"}}",
        f"  color: #{g.s(HEX, 6)}; background: rgba(12, 34, 56, 0.5); border-color: #{g.s(HEX, 3)};",
        "src/auth/token_refresh.py:88: in refresh_access_token",
        "C:\\Users\\dana\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\secrets.py",
        "/usr/lib/x86_64-linux-gnu/libssl.so.3",
        f"echo {base64.b64encode(b'hello from the build server').decode()} | base64 -d",
        "data:image/png;base64," + base64.b64encode(b"\x89PNG" + g.r.randbytes(60)).decode(),
        f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{g.s(B64, 43)} dana@laptop",
        f"docker inspect --format '{{{{.Id}}}}' api  # sha256:{g.s(HEX, 64)}",
        f"api-{g.s(LOWER_ALNUM, 10)}-{g.s(LOWER_ALNUM, 5)}   1/1     Running   0          3d",
        f"  \"UserId\": \"AIDA{g.s(string.ascii_uppercase + string.digits, 17)}\",\n  \"Account\": \"123456789012\",\n  \"Arn\": \"arn:aws:iam::123456789012:user/ci\"",
        "AWS access key ids start with AKIA (long-term) or ASIA (temporary).",
        "password: ${DB_PASSWORD}",
        "api_key = var.datadog_api_key",
        "token: <your-token-here>",
        "AWS_ACCESS_KEY_ID: ${{ secrets.AWS_ACCESS_KEY_ID }}",
        "export GITHUB_TOKEN=$(gh auth token)",
        "valueFrom:\n  secretKeyRef:\n    name: db-credentials\n    key: password",
        "PASSWORD_RESET_TOKEN_TTL_SECONDS=3600",
        "Use the Bearer scheme: Authorization: Bearer <token>.",
        "fix(auth): rotate the signing key before the token expires",
        f"trace_id={g.s(HEX, 32)} span_id={g.s(HEX, 16)}",
        f"Sentry event {g.s(HEX, 32)} captured",
        f"gpg: key {g.s(UPPER_HEX, 16)}: public key \"Dana Reyes <dana@example.com>\" imported",
        f"Fingerprint: {' '.join(g.s(UPPER_HEX, 4) for _ in range(10))}",
        f"ETag: \"{g.s(HEX, 32)}\"",
        f"x-amz-request-id: {g.s(string.ascii_uppercase + string.digits, 16)}",
        f"{g.s(HEX, 64)}  dist/carto-0.9.1-py3-none-any.whl",
        f"md5sum: {hashlib.md5(b'report.csv').hexdigest()}  report.csv",
        "fe80::1ff:fe23:4567:890a%eth0 and 3c:22:fb:9a:10:7e",
        "node_modules/@types/node/crypto.d.ts",
        "git@github.com:acme/secret-santa.git",
        "https://www.npmjs.com/package/@octokit/auth-token",
        "pip install keyring==25.2.1 python-dotenv==1.0.1",
        "pk_live_" + g.s(ALNUM, 24) + " is the publishable key, safe in the browser",
        "The token bucket refills at 10 tokens per second (burst 40).",
        f"Chrome extension {g.s('abcdefghijklmnop', 32)} updated",
        "-----BEGIN CERTIFICATE-----\n" + "\n".join(g.pem_body(bytes.fromhex("308203a130820289a003020102"), 400)) + "\n-----END CERTIFICATE-----",
        "-----BEGIN PUBLIC KEY-----\n" + "\n".join(g.pem_body(bytes.fromhex("30820122300d06092a864886f70d01010105000382010f00"), 200)) + "\n-----END PUBLIC KEY-----",
        f"kafka cluster id: {g.b64url(16)}",
        "test_login_rejects_expired_token PASSED [ 42%]",
        "secrets.token_urlsafe(32)  # a new session id",
        "const passwordInput = document.querySelector('#password');",
        f"Successfully built {g.s(HEX, 12)}\nSuccessfully tagged acme/api:1.4.2",
        f"Uploaded {u()}.parquet to s3://acme-data/raw/2026/12/06/",
        f"keyid={g.s(UPPER_HEX, 40)} algorithm=ed25519",
        "max_tokens: 4096\ntemperature: 0.2",
        "auth_provider: oidc\nsession_timeout: 30m",
        "password_min_length = 12\npassword_require_symbol = true",
        f"version: \"3.9\"\nservices:\n  db:\n    image: postgres:16@sha256:{g.s(HEX, 64)}",
        f"Generated migration 20261206_{g.s(HEX, 8)}_add_api_keys_table.py",
        "curl -u \"$USER:$PASS\" https://ci.acme.net/api/json",
        "the password 7 characters or longer is required",
        "ya29 is the prefix of Google's access tokens",
        f"Run ID {g.r.randint(10**9, 10**10)} attempt 2 of job build-and-test",
        "ghp_ tokens expire after 90 days by default",
        f"object {g.s(HEX, 40)}\ntype commit\ntag v2.3.0",
        "jdbc:postgresql://db:5432/app?user=app&ssl=true",
        "postgres://localhost:5432/test_db",
    ]


def _thirds(items: list) -> tuple[list, list]:
    """The two thirds tuned on and the third held out (every third item)."""
    return [x for i, x in enumerate(items) if i % 3 != 2], [x for i, x in enumerate(items) if i % 3 == 2]


def tuned_shapes() -> list[dict]:
    return _thirds(shapes())[0]


def held_out_shapes() -> list[dict]:
    return _thirds(shapes())[1]


def tuned_ordinary() -> list[str]:
    return _thirds(ordinary())[0]


def held_out_ordinary() -> list[str]:
    return _thirds(ordinary())[1]
