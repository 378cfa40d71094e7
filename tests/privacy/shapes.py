"""Credential shape sets, generated: each case is (family, text, secret), `secret` being the part
that must not survive redaction. Values are random (seeded), made here; none is a live credential.

Sets A, B and C are the ones the rules were written against; HELD_OUT was written before the
rules, in other contexts and spellings, and is only ever measured (never tuned on). Every set
covers the families of the trust issue: CLI password flags, code and config, key names, key
material without its frame, vendor tokens, and long high-entropy values under secret-like names.
"""

from __future__ import annotations

import base64
import json
import random
import string

ALNUM = string.ascii_letters + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"


class Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def s(self, alphabet: str, n: int) -> str:
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def pw(self, n: int = 12) -> str:
        """A password a person might choose: letters, digits, one or two symbols."""
        core = self.s(string.ascii_letters, n - 4) + self.s(string.digits, 2) + self.r.choice("!#%*-_.") + self.s(ALNUM, 1)
        chars = list(core)
        self.r.shuffle(chars)
        return "".join(chars).lstrip("-") or "x" + core

    def uuid(self) -> str:
        h = self.s(HEX, 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def b64(self, n: int) -> str:
        return base64.b64encode(self.r.randbytes(n)).decode()

    def b64url(self, n: int) -> str:
        return base64.urlsafe_b64encode(self.r.randbytes(n)).decode().rstrip("=")

    def jwt_part(self, claims: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")

    def pem_body(self, der_head: bytes, size: int = 600) -> list[str]:
        body = base64.b64encode(der_head + self.r.randbytes(size)).decode()
        return [body[i:i + 64] for i in range(0, len(body), 64)]

    def snowflake(self) -> str:
        return str(self.r.randint(10**17, 2 * 10**18))


# DER headers of private keys (what a PEM body starts with): PKCS#1 RSA, PKCS#8, SEC1 EC,
# PKCS#8 Ed25519, encrypted PKCS#8 (PBES2).
DER_HEADS = {
    "rsa": bytes.fromhex("308204a40201000282010100"),
    "pkcs8": bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8"),
    "ec": bytes.fromhex("307702010104"),
    "pkcs8-ec": bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420"),
    "ed25519": bytes.fromhex("302e020100300506032b657004220420"),
    "encrypted": bytes.fromhex("3082051c304e06092a864886f70d01050d3041"),
}


def _case(family: str, text: str, secret: str) -> dict:
    return {"family": family, "text": text, "secret": secret}


def set_a(seed: int = 101) -> list[dict]:
    g = Gen(seed)
    out = []
    # CLI password flags
    p = g.pw(); out.append(_case("cli", f"keytool -importkeystore -srckeystore a.p12 -destkeystore b.jks -deststorepass {p}", p))
    p = g.pw(); out.append(_case("cli", f"keytool -genkeypair -alias app -keystore app.jks -storepass {p} -keypass {p}", p))
    p = g.pw(); out.append(_case("cli", f"sqlcmd -S tcp:db.internal,1433 -U sa -P {p} -Q \"SELECT 1\"", p))
    p = g.pw(); out.append(_case("cli", f"ldapsearch -x -H ldap://ldap.corp -D \"cn=admin,dc=corp\" -w {p} -b dc=corp", p))
    p = g.pw(); out.append(_case("cli", f"smbclient //files/share -U CORP\\\\alice%{p} -c ls", p))
    p = g.pw(); out.append(_case("cli", f"htpasswd -b -c /etc/nginx/.htpasswd admin {p}", p))
    p = g.pw(); out.append(_case("cli", f"http -a deploy:{p} POST https://api.internal/v1/release", p))
    # code and config
    p = g.pw(); out.append(_case("code", f"resp = requests.get(url, auth=(\"svc-report\", \"{p}\"), timeout=5)", p))
    p = g.pw(); out.append(_case("config", f"db.internal:5432:orders:orders_app:{p}", p))
    p = g.pw(); out.append(_case("cli", f"sqlplus scott/{p}@//ora.internal:1521/ORCLPDB1", p))
    # key names
    v = g.s(ALNUM, 32); out.append(_case("keyname", f"MIX_APP_KEY={v}", v))
    v = g.b64(32); out.append(_case("keyname", f"APP_KEY=base64:{v}", v))
    v = g.s(HEX, 64); out.append(_case("keyname", f"export HMAC_KEY={v}", v))
    v = g.s(LOWER_ALNUM, 32); out.append(_case("keyname", f"curl -H 'Cookie: sessionid={v}' https://app.internal/admin/", v))
    v = g.s(HEX, 32); out.append(_case("keyname", f"Ocp-Apim-Subscription-Key: {v}", v))
    v = g.s(URLSAFE, 54) + "=="; out.append(_case("keyname", f"https://orders-fn.azurewebsites.net/api/Checkout?code={v}", v[:40]))
    # key material without its frame
    lines = g.pem_body(DER_HEADS["pkcs8"]); out.append(_case("keymaterial", "\n".join(lines[:12]) + "\n-----END PRIVATE KEY-----", lines[3]))
    pem = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(g.pem_body(DER_HEADS["rsa"])) + "\n-----END RSA PRIVATE KEY-----\n"
    enc = base64.b64encode(pem.encode()).decode()
    out.append(_case("keymaterial", f"apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.key: {enc}", enc[60:120]))
    d = g.b64url(256); out.append(_case("keymaterial", json.dumps({"kty": "RSA", "kid": "k1", "n": g.b64url(256), "e": "AQAB", "d": d,
                                                                    "p": g.b64url(128), "q": g.b64url(128)}), d[:40]))
    # vendor tokens
    v = "pk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6I" + g.s(ALNUM, 20) + "." + g.s(URLSAFE, 22); out.append(_case("vendor", f"MAPBOX_ACCESS_TOKEN={v}", v[30:]))
    v = base64.b64encode(g.snowflake().encode()).decode().rstrip("=") + "." + g.s(URLSAFE, 6) + "." + g.s(URLSAFE, 38)
    out.append(_case("vendor", f"client.run(\"{v}\")", v))
    v = "pat" + g.s(ALNUM, 14) + "." + g.s(HEX, 64); out.append(_case("vendor", f"Authorization: Bearer {v}", v))
    v = "sl." + g.s(URLSAFE, 138); out.append(_case("vendor", f"DROPBOX_TOKEN = \"{v}\"", v[:40]))
    v = "AAAA" + g.s(URLSAFE, 7) + ":APA91b" + g.s(URLSAFE, 134); out.append(_case("vendor", f"fcm server key is {v}", v[:40]))
    v = "s." + g.s(ALNUM, 24); out.append(_case("vendor", f"VAULT_TOKEN={v} vault kv get secret/app", v))
    v = f"https://acme.webhook.office.com/webhookb2/{g.uuid()}@{g.uuid()}/IncomingWebhook/{g.s(HEX, 32)}/{g.uuid()}"
    out.append(_case("vendor", f"curl -H 'Content-Type: application/json' -d @msg.json {v}", v.split("/IncomingWebhook/")[1][:32]))
    # high-entropy values under secret-like names
    v = g.s(ALNUM, 40); out.append(_case("entropy", f"WEBHOOK_SIGNING_SALT={v}", v))
    v = g.b64(30); out.append(_case("entropy", f"  encryptionKey: \"{v}\"", v))
    return out


def set_b(seed: int = 202) -> list[dict]:
    g = Gen(seed)
    out = []
    p = g.pw(); out.append(_case("cli", f"$ keytool -list -v -keystore truststore.jks -storepass '{p}'", p))
    p = g.pw(); out.append(_case("cli", f"bcp dbo.orders out orders.dat -S db01 -U loader -P \"{p}\" -c", p))
    p = g.pw(); out.append(_case("cli", f"ldapmodify -H ldaps://dir.example.org -D uid=svc,ou=apps -w '{p}' -f change.ldif", p))
    p = g.pw(); out.append(_case("cli", f"rpcclient -U 'WORKGROUP/bob%{p}' 10.0.0.5 -c enumdomusers", p))
    p = g.pw(); out.append(_case("cli", f"htpasswd -nbB monitor {p} >> htpasswd", p))
    p = g.pw(); out.append(_case("cli", f"https --auth ops:{p} GET api.example.org/health", p))
    p = g.pw(); out.append(_case("code", f"session.auth = ('metrics', '{p}')", p))
    p = g.pw(); out.append(_case("code", f"r = httpx.get(url, auth=httpx.BasicAuth(\"ops\", \"{p}\"))", p))
    p = g.pw(); out.append(_case("config", f"*:*:*:replicator:{p}", p))
    p = g.pw(); out.append(_case("cli", f"expdp system/{p}@PRODDB schemas=HR directory=DUMP dumpfile=hr.dmp", p))
    v = g.s(ALNUM, 40); out.append(_case("keyname", f"{{\"VITE_APP_KEY\": \"{v}\"}}", v))
    v = g.b64(32); out.append(_case("keyname", f"APP_KEY=\"base64:{v}\"", v))
    v = g.b64(48); out.append(_case("keyname", f"hmac_key: {v}", v))
    v = g.s(ALNUM, 40); out.append(_case("keyname", f"Set-Cookie: sessionid={v}; HttpOnly; Path=/", v))
    v = g.s(HEX, 32); out.append(_case("keyname", f"headers = {{\"Ocp-Apim-Subscription-Key\": \"{v}\"}}", v))
    v = g.s(URLSAFE, 56); out.append(_case("keyname", f"GET https://fn-ingest.azurewebsites.net/api/ingest?code={v}&clientId=default", v))
    lines = g.pem_body(DER_HEADS["ec"], 100); out.append(_case("keymaterial", "\\n".join(lines) + "\\n-----END EC PRIVATE KEY-----\\n", lines[0][8:]))
    pem = "-----BEGIN PRIVATE KEY-----\n" + "\n".join(g.pem_body(DER_HEADS["pkcs8"])) + "\n-----END PRIVATE KEY-----\n"
    enc = base64.b64encode(pem.encode()).decode()
    out.append(_case("keymaterial", json.dumps({"apiVersion": "v1", "kind": "Secret", "data": {"key.pem": enc}}), enc[80:140]))
    d = g.b64url(32); out.append(_case("keymaterial", f"jwk = {{\"kty\": \"OKP\", \"crv\": \"Ed25519\", \"x\": \"{g.b64url(32)}\", \"d\": \"{d}\"}}", d))
    v = "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + g.s(ALNUM, 22) + "." + g.s(URLSAFE, 22); out.append(_case("vendor", f"mapboxgl.accessToken = '{v}';", v[26:]))
    v = base64.b64encode(g.snowflake().encode()).decode().rstrip("=") + "." + g.s(URLSAFE, 6) + "." + g.s(URLSAFE, 27)
    out.append(_case("vendor", f"DISCORD_BOT_TOKEN={v}", v))
    v = "key" + g.s(ALNUM, 14); out.append(_case("vendor", f"airtable = Airtable(base_id, api_key=\"{v}\")", v))
    v = g.s(LOWER_ALNUM, 11) + "AAAAAAAAAA" + g.s(URLSAFE, 43); out.append(_case("vendor", f"dropbox access token: {v}", v))
    v = "AAAA" + g.s(URLSAFE, 7) + ":APA91b" + g.s(URLSAFE, 140); out.append(_case("vendor", f"{{\"to\": \"/topics/news\", \"server_key\": \"{v}\"}}", v[:40]))
    v = "s." + g.s(ALNUM, 24); out.append(_case("vendor", f"export VAULT_TOKEN=\"{v}\"", v))
    v = f"https://contoso.webhook.office.com/webhookb2/{g.uuid()}@{g.uuid()}/IncomingWebhook/{g.s(HEX, 32)}/{g.uuid()}"
    out.append(_case("vendor", f"TEAMS_WEBHOOK_URL={v}", v.split("/IncomingWebhook/")[1][:32]))
    v = g.s(ALNUM, 48); out.append(_case("entropy", f"STRIPE_WEBHOOK_SIGNATURE: {v}", v))
    v = g.s(ALNUM, 32); out.append(_case("entropy", f"config.cookieKey = \"{v}\";", v))
    return out


def set_c(seed: int = 303) -> list[dict]:
    g = Gen(seed)
    out = []
    p = g.pw(); out.append(_case("cli", f"jarsigner -keystore release.jks -storepass {p} app.apk release", p))
    p = g.pw(); out.append(_case("cli", f"sqlcmd -S localhost -d master -U sa -P{p}", p))
    p = g.pw(); out.append(_case("cli", f"ldapadd -x -D cn=Manager,dc=ex,dc=com -w {p} -f users.ldif", p))
    p = g.pw(); out.append(_case("cli", f"smbclient -L //nas -U guest%{p}", p))
    p = g.pw(); out.append(_case("cli", f"docker run --rm httpd:2.4 htpasswd -Bbn registry {p} > auth/htpasswd", p))
    p = g.pw(); out.append(_case("cli", f"xh -a admin:{p} :8080/api/users", p))
    p = g.pw(); out.append(_case("code", f"client = Client(base_url, auth=(user, \"{p}\"))", p))
    p = g.pw(); out.append(_case("config", f"echo 'pg.internal:6432:*:pgbouncer:{p}' >> ~/.pgpass", p))
    p = g.pw(); out.append(_case("cli", f"rman target sys/{p}@ORCL", p))
    v = g.s(ALNUM, 40); out.append(_case("keyname", f"PUSHER_APP_KEY: \"{v}\"", v))
    v = g.b64(32); out.append(_case("keyname", f"php artisan env:set APP_KEY=base64:{v}", v))
    v = g.s(HEX, 40); out.append(_case("keyname", f"{{\"hmacKey\": \"{v}\"}}", v))
    v = g.s(URLSAFE, 32); out.append(_case("keyname", f"Cookie: csrftoken=abc; sessionid={v}; theme=dark", v))
    v = g.s(HEX, 32); out.append(_case("keyname", f"curl -H \"Ocp-Apim-Subscription-Key: {v}\" https://apim.example.net/orders", v))
    v = g.s(URLSAFE, 54); out.append(_case("keyname", f"\"url\": \"https://x.azurewebsites.net/api/run?code={v}\"", v))
    lines = g.pem_body(DER_HEADS["rsa"]); out.append(_case("keymaterial", "key body (header lost):\n" + "\n".join(lines[:8]), lines[2]))
    pem = "-----BEGIN EC PRIVATE KEY-----\n" + "\n".join(g.pem_body(DER_HEADS["ec"], 90)) + "\n-----END EC PRIVATE KEY-----\n"
    enc = base64.b64encode(pem.encode()).decode()
    out.append(_case("keymaterial", f"kubectl create secret generic tls --dry-run -o yaml\nkind: Secret\ndata:\n  private.pem: {enc}\n", enc[60:120]))
    d = g.b64url(128); out.append(_case("keymaterial", f'{{"keys": [{{"kty": "RSA", "use": "sig", "n": "{g.b64url(256)}", "e": "AQAB", "dp": "{d}"}}]}}', d[:40]))
    v = "pk.eyJ1Ijoid2ViIiwiYSI6I" + g.s(ALNUM, 24) + "." + g.s(URLSAFE, 22); out.append(_case("vendor", f"<script>L.mapbox.accessToken = \"{v}\"</script>", v[24:]))
    v = base64.b64encode(g.snowflake().encode()).decode().rstrip("=") + "." + g.s(URLSAFE, 6) + "." + g.s(URLSAFE, 38)
    out.append(_case("vendor", f"the bot token {v} leaked in the log", v))
    v = "pat" + g.s(ALNUM, 14) + "." + g.s(HEX, 64); out.append(_case("vendor", f"AIRTABLE_PAT={v}", v))
    v = "sl.u." + g.s(URLSAFE, 140); out.append(_case("vendor", f"dbx = dropbox.Dropbox(\"{v}\")", v[:40]))
    v = "AAAA" + g.s(URLSAFE, 7) + ":APA91b" + g.s(URLSAFE, 134); out.append(_case("vendor", f"Authorization: key={v}", v[:40]))
    v = "b." + g.s(ALNUM, 24); out.append(_case("vendor", f"vault token lookup {v}", v))
    v = f"https://outlook.office.com/webhook/{g.uuid()}@{g.uuid()}/IncomingWebhook/{g.s(HEX, 32)}/{g.uuid()}"
    out.append(_case("vendor", f"post to {v}", v.split("/IncomingWebhook/")[1][:32]))
    v = g.s(ALNUM, 44); out.append(_case("entropy", f"SESSION_SIGNATURE_SALT = \"{v}\"", v))
    v = g.b64(33); out.append(_case("entropy", f"--license-key {v}", v))
    return out


def set_d(seed: int = 404) -> list[dict]:
    """Each rule family alone: a case only that rule catches (the load-bearing test needs one)."""
    g = Gen(seed)
    out = []
    lines = g.pem_body(DER_HEADS["rsa"], 900)
    out.append(_case("keymaterial", "...\n" + lines[-2] + "\n" + lines[-1][:30] + "\n-----END RSA PRIVATE KEY-----", lines[-2]))
    p = g.b64(12); out.append(_case("keymaterial", f"kind: Secret\nmetadata:\n  name: db\ndata:\n  password: {p}\n  username: YXBw", p))
    p = g.b64(15); out.append(_case("keymaterial", json.dumps({"kind": "Secret", "data": {"api-token": p}}), p))
    v = "ntn_" + g.s(string.digits, 11) + g.s(ALNUM, 35); out.append(_case("vendor", f"notion integration {v}", v))
    v = "secret_" + g.s(ALNUM, 43); out.append(_case("vendor", f"NOTION_KEY {v}", v))
    v = "figd_" + g.s(URLSAFE, 41); out.append(_case("vendor", f"X-Figma-Token {v}", v))
    v = "tskey-api-" + g.s(ALNUM, 10) + "-" + g.s(ALNUM, 25); out.append(_case("vendor", f"ts {v}", v[10:]))
    v = g.s(HEX, 32) + "-us21"; out.append(_case("vendor", f"mc {v}", v[:32]))
    v = "dt0c01." + g.s(string.ascii_uppercase + string.digits, 24) + "." + g.s(string.ascii_uppercase + string.digits, 64)
    out.append(_case("vendor", f"dynatrace {v}", v))
    v = "nfp_" + g.s(ALNUM, 36); out.append(_case("vendor", f"netlify deploy {v}", v))
    v = "CFPAT-" + g.s(URLSAFE, 43); out.append(_case("vendor", f"contentful {v}", v))
    v = "pat-na1-" + g.uuid(); out.append(_case("vendor", f"hubspot {v}", v))
    v = "xkeysib-" + g.s(HEX, 64) + "-" + g.s(ALNUM, 16); out.append(_case("vendor", f"brevo {v}", v))
    p = g.pw(); out.append(_case("cli", f"helm registry login ghcr.io -u bot -p {p}", p))
    p = g.pw(); out.append(_case("code", f"putenv('SMTP_PASSWORD', '{p}');", p))
    v = g.s(ALNUM, 32); out.append(_case("keyname", f"Cookie: _ga=GA1.2.3; remember_web={v}", v))
    v = g.s(LOWER_ALNUM, 32); out.append(_case("keyname", f"https://shop.example/cart;jsessionid={v}", v))
    v = g.s(ALNUM, 36); out.append(_case("entropy", f"phx.gen.secret --signing-salt {v}", v))
    lines = g.pem_body(DER_HEADS["pkcs8"], 900); out.append(_case("keymaterial", "pasted: " + "\n".join(lines[5:8]), lines[6]))
    v = "ghp_" + g.s(ALNUM, 36); out.append(_case("vendor", json.dumps({"output": f"remote: ok\n{v}\n"}), v))
    v = "".join(g.pem_body(DER_HEADS["ed25519"], 30)); out.append(_case("keymaterial", f"the signing key is {v} (ed25519)", v[16:]))
    v = "zeta_live_" + g.s(ALNUM, 32); out.append(_case("vendor", f"the new vendor token {v} works", v[10:]))
    v = "qx-" + g.s(ALNUM, 40); out.append(_case("vendor", f"[{v}]", v[3:]))
    # known-length tokens cut by one line break (a terminal's wrap, a summary's space)
    v = g.s(ALNUM, 30) + "7"; out.append(_case("vendor", f"always push with ghp_{v[:26]}\n{v[26:]}Q9x2k please", v[26:] + "Q9x2k"))
    v = "AKIA" + g.s(string.ascii_uppercase, 8) + "4" + g.s(string.digits, 7)
    out.append(_case("vendor", json.dumps({"output": f"key id {v[:11]}\n{v[11:]} ok"}), v[11:]))
    v = f"xoxb-{g.s(string.digits, 10)}-{g.s(string.digits, 11)}-{g.s(ALNUM, 24)}"; out.append(_case("vendor", f"SLACK {v[:40]} {v[40:]} set", v[40:]))
    v = "npm_" + g.s(ALNUM, 35) + "3"; out.append(_case("vendor", f"//registry.npmjs.org/:_authToken {v[:33]}\r\n{v[33:]}", v[33:]))
    v = "AIza" + g.s(URLSAFE, 34) + "5"; out.append(_case("vendor", f"maps key:\n  {v[:20]}\n  {v[20:]}", v[20:]))
    # every family the line-break rules join, wrapped by a terminal: a known length at one break
    # (the first piece too short for the family's own rule), an open one over three lines
    for name, (token, kind, body, known) in cut_tokens(404).items():
        if name in ("ghp", "akia", "xoxb", "npm", "google"):
            continue  # (the cases above)
        if known:
            at = body + 3
            out.append(_case("vendor", f"pasted {token[:at]}\n{token[at:]} here", token[at:]))
        else:
            width = min(80, max(16, (len(token) - body + 2) // 2))
            lines = [token[:body + 2]] + [token[i:i + width] for i in range(body + 2, len(token), width)]
            out.append(_case("vendor", "pasted " + "\n".join(lines) + "\nthen ran it", lines[-1]))
    v = g.s(ALNUM, 24); out.append(_case("vendor", f"the key: sk_li\nve_{v}, done", v))  # a break inside the prefix
    v = "08" + g.s("0123456789ABCDEF", 18); out.append(_case("config", f"line vty 0 4\n password 7 {v}\n login", v))
    v = g.s(ALNUM + "./", 43); out.append(_case("config", f"enable secret 9 $9${g.s(ALNUM, 14)}${v}", v))
    return out


def cut_tokens(seed: int = 505) -> dict[str, tuple[str, str, int, bool]]:
    """A token of each family the line-break rules join: (token, kind, where its body starts,
    whether its length is known)."""
    g = Gen(seed)
    up = string.ascii_uppercase + string.digits
    known = {
        "ghp": ("ghp_" + g.s(ALNUM, 36), "github-token", 4),
        "github_pat": ("github_pat_" + g.s(ALNUM, 22) + "_" + g.s(ALNUM, 59), "github-token", 11),
        "akia": ("AKIA" + g.s(up, 16), "aws-access-key", 4),
        "xoxb": (f"xoxb-{g.s(string.digits, 10)}-{g.s(string.digits, 11)}-{g.s(ALNUM, 24)}", "slack-token", 5),
        "xoxp": (f"xoxp-{g.s(string.digits, 10)}-{g.s(string.digits, 10)}-{g.s(string.digits, 11)}-{g.s(HEX, 32)}", "slack-token", 5),
        "npm": ("npm_" + g.s(ALNUM, 36), "npm-token", 4),
        "google": ("AIza" + g.s(ALNUM, 35), "google-api-key", 4),
        "anthropic": ("sk-ant-api03-" + g.s(URLSAFE, 92) + "xAA", "anthropic-key", 13),
        "netlify": ("nfp_" + g.s(ALNUM, 36), "netlify-token", 4),
        "databricks": ("dapi" + g.s(HEX, 32), "databricks-token", 4),
        "shopify": ("shpat_" + g.s(HEX, 32), "shopify-token", 6),
        "shopify-ss": ("shpss_" + g.s(HEX, 32), "shopify-token", 6),
        "shopify-ca": ("shpca_" + g.s(HEX.upper(), 32), "shopify-token", 6),
        "alibaba": ("LTAI" + g.s(ALNUM, 20), "alibaba-access-key", 4),
        "infracost": ("ico-" + g.s(ALNUM, 32), "infracost-token", 4),
        "nostr": ("nsec1" + g.s("023456789acdefghjklmnpqrstuvwxyz", 58), "nostr-private-key", 5),
        "notion": ("ntn_" + g.s(string.digits, 11) + g.s(ALNUM, 35), "notion-token", 4),
        "langsmith": ("lsv2_pt_" + g.s(HEX, 32) + "_" + g.s(HEX, 10), "langsmith-key", 8),
        "honeycomb": ("hcxik_" + g.s(LOWER_ALNUM, 58), "honeycomb-key", 6),
        "circleci": ("CCIPAT_" + g.s(ALNUM, 22) + "_" + g.s(HEX, 40), "circleci-token", 7),
        "buildkite": ("bkua_" + g.s(HEX, 40), "buildkite-token", 5),
        "pulumi": ("pul-" + g.s(HEX, 40), "pulumi-token", 4),
        "easypost": ("EZAK" + g.s(HEX, 54), "easypost-key", 4),
        "rubygems": ("rubygems_" + g.s(HEX, 48), "rubygems-token", 9),
        "digitalocean": ("dop_v1_" + g.s(HEX, 64), "digitalocean-token", 7),
        "supabase": ("sbp_" + g.s(HEX, 40), "supabase-key", 4),
        "age": ("AGE-SECRET-KEY-1" + g.s(up, 58), "age-secret-key", 16),
        "fly-fo1": ("fo1_" + g.s(ALNUM, 43), "fly-token", 4),
        "contentful": ("CFPAT-" + g.s(ALNUM, 43), "contentful-token", 6),
        "postman": ("PMAK-" + g.s(HEX, 24) + "-" + g.s(HEX, 34), "postman-key", 5),
        "dynatrace": ("dt0c01." + g.s(up, 24) + "." + g.s(up, 64), "dynatrace-token", 7),
        "brevo": ("xkeysib-" + g.s(HEX, 64) + "-" + g.s(ALNUM, 16), "brevo-key", 8),
        "openshift": ("sha256~" + g.s(ALNUM, 43), "openshift-token", 7),
    }
    jwt = (g.jwt_part({"alg": "RS256", "typ": "JWT", "kid": g.s(HEX, 16)}) + "."
           + g.jwt_part({"sub": g.uuid(), "iss": "https://auth.example.com", "exp": 1893456000}) + "." + g.b64url(256))
    opened = {
        "anthropic-oat": ("sk-ant-oat01-" + g.s(URLSAFE, 95), "anthropic-key", 13),
        "openai": ("sk-proj-" + g.s(URLSAFE, 156), "openai-key", 8),
        "stripe": ("sk_live_" + g.s(ALNUM, 99), "stripe-key", 8),
        "gitlab": ("glpat-" + g.s(ALNUM, 45), "gitlab-token", 6),
        "fly": ("fm2_" + g.b64(300).rstrip("="), "fly-token", 4),
        "jwt": (jwt, "jwt", 3),
        "slack-app": ("xoxe-1-" + g.s(ALNUM, 140), "slack-token", 5),
        "huggingface": ("hf_" + g.s(ALNUM, 34), "huggingface-token", 3),
        "pypi": ("pypi-AgEIcHlwaS5vcmc" + g.s(URLSAFE, 150), "pypi-token", 8),
        "vault": ("hvs." + g.s(URLSAFE, 92), "vault-token", 4),
        "atlassian": ("ATATT3xFfGF0" + g.s(ALNUM, 170), "atlassian-token", 6),
        "dockerhub": ("dckr_pat_" + g.s(ALNUM, 27), "dockerhub-token", 9),
        "onepassword": ("ops_eyJ" + g.s(ALNUM, 300), "onepassword-token", 7),
        "sentry": ("sntrys_eyJ" + g.s(ALNUM, 150), "sentry-token", 7),
        "google-oauth": ("ya29." + g.s(ALNUM, 150), "google-oauth-token", 5),
    }
    return {**{k: (*v, True) for k, v in known.items()}, **{k: (*v, False) for k, v in opened.items()}}


def held_out(seed: int = 909) -> list[dict]:
    """Written before the rules; measured, never tuned on."""
    g = Gen(seed)
    out = []
    p = g.pw(); out.append(_case("cli", f"openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:{p}", p))
    p = g.pw(); out.append(_case("cli", f"zip -r -P {p} backup.zip ./data", p))
    p = g.pw(); out.append(_case("cli", f"ldapwhoami -x -D uid=me,ou=people,dc=ex -w {p}", p))
    p = g.pw(); out.append(_case("cli", f"mount -t cifs //nas/media /mnt -o username=media,password={p}", p))
    p = g.pw(); out.append(_case("cli", f"keytool -changealias -alias a -destalias b -keystore k.jks -storepass:env STOREPASS -keypass {p}", p))
    p = g.pw(); out.append(_case("cli", f"apksigner sign --ks release.jks --ks-pass pass:{p} app.apk", p))
    p = g.pw(); out.append(_case("cli", f"az login --service-principal -u http://ci -p {p} --tenant contoso", p))
    p = g.pw(); out.append(_case("code", f"smtp.login('alerts@example.com', '{p}')", p))
    p = g.pw(); out.append(_case("code", f"req.SetBasicAuth(\"admin\", \"{p}\")", p))
    p = g.pw(); out.append(_case("code", f"define('DB_PASSWORD', '{p}');", p))
    p = g.pw(); out.append(_case("config", f"jdbc:oracle:thin:app/{p}@db.internal:1521:ORCL", p))
    v = g.s(ALNUM, 36); out.append(_case("keyname", f"REACT_APP_MAPS_KEY={v}", v))
    v = g.s(HEX, 32); out.append(_case("keyname", f"x-functions-key: {v}", v))
    v = g.s(URLSAFE, 40); out.append(_case("keyname", f"document.cookie = \"PHPSESSID={v}; path=/\"", v))
    v = g.s(ALNUM, 39); out.append(_case("keyname", f"https://maps.googleapis.com/maps/api/geocode/json?address=x&key={v}", v))
    v = g.s(ALNUM, 48); out.append(_case("keyname", f"JWT_SIGNING_KEY: {v}", v))
    lines = g.pem_body(DER_HEADS["pkcs8-ec"], 80); out.append(_case("keymaterial", f"\"{chr(92)}n\".join([\"{lines[0]}\", \"{lines[1]}\"])", lines[0][12:]))
    lines = g.pem_body(DER_HEADS["encrypted"], 900); out.append(_case("keymaterial", "\n".join(lines[4:14]) + "\n-----END ENCRYPTED PRIVATE KEY-----", lines[6]))
    k = g.b64url(32); out.append(_case("keymaterial", f"{{\"kty\":\"oct\",\"alg\":\"HS256\",\"k\":\"{k}\"}}", k))
    pem = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + base64.b64encode(b"openssh-key-v1\x00" + g.r.randbytes(300)).decode() + "\n-----END OPENSSH PRIVATE KEY-----\n"
    enc = base64.b64encode(pem.encode()).decode()
    out.append(_case("keymaterial", f"data:\n  ssh-privatekey: {enc}\nkind: Secret\nmetadata:\n  name: deploy-key", enc[50:110]))
    v = "tk.eyJ1IjoiYSIsImEiOiJ" + g.s(ALNUM, 22) + "." + g.s(URLSAFE, 22); out.append(_case("vendor", f"token={v}", v[22:]))
    v = base64.b64encode(g.snowflake().encode()).decode().rstrip("=") + "." + g.s(URLSAFE, 6) + "." + g.s(URLSAFE, 38)
    out.append(_case("vendor", f"Authorization: Bot {v}", v))
    v = "sl.B" + g.s(URLSAFE, 136); out.append(_case("vendor", f"Dropbox-API-Arg ... Authorization: Bearer {v}", v[:40]))
    v = "hvr." + g.s(URLSAFE, 96); out.append(_case("vendor", f"recovery token {v}", v[:40]))
    v = "ntn_" + g.s(string.digits, 11) + g.s(ALNUM, 35); out.append(_case("vendor", f"notion = Client(auth=\"{v}\")", v))
    v = "figd_" + g.s(URLSAFE, 40); out.append(_case("vendor", f"figma token {v}", v))
    v = "tskey-auth-" + g.s(ALNUM, 12) + "-" + g.s(ALNUM, 30); out.append(_case("vendor", f"tailscale up --authkey={v}", v[11:]))
    v = g.s(HEX, 32) + "-us14"; out.append(_case("vendor", f"mailchimp api key {v}", v[:32]))
    v = "dt0c01." + g.s(string.ascii_uppercase + string.digits, 24) + "." + g.s(string.ascii_uppercase + string.digits, 64)
    out.append(_case("vendor", f"DT_API_TOKEN {v}", v))
    v = g.s(ALNUM, 40); out.append(_case("entropy", f"COOKIE_SECRET_SEED={v}", v))
    v = g.b64(32); out.append(_case("entropy", f"\"webhookSignature\": \"{v}\"", v))
    v = g.s(ALNUM, 32); out.append(_case("entropy", f"ENCRYPTION_KEY_V2 = '{v}'", v))
    return out


def set_e() -> list[dict]:
    """The sweep's two thirds the rules were fixed against (tests/privacy/sweep.py)."""
    from tests.privacy.sweep import tuned_shapes

    return tuned_shapes()


TUNED = {"A": set_a, "B": set_b, "C": set_c, "D": set_d, "E": set_e}
HELD_OUT = held_out
