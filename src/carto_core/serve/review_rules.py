"""Which files of a session's repository the review route never shows, whatever their place.

The route (`desk.review`) is confined to the repository already; inside it, some files hold
what a page should never carry: the environment files (`.env`, `.env.local`, `.envrc`), the
repository's own `.git/` folder (its config can hold a token in a remote URL), key and
credential files by name, and anything git ignores (where builds, caches and local secrets
go). A file is refused when its path, as requested or after symlinks, matches. A commit's diff
leaves the same names out (`DIFF_EXCLUDES`, git pathspecs), and every text shown is redacted
as stored text is.
"""

from __future__ import annotations

import fnmatch

#: File names refused wherever they are (fnmatch patterns, matched case-insensitively).
KEY_NAMES = (
    "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.ppk", "*.kdbx",
    "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
    ".netrc", "_netrc", ".pgpass", ".npmrc", ".pypirc", ".htpasswd", ".git-credentials",
    "credentials", "credentials.json", "*.tfstate", "*.tfstate.backup",
)


def refusal(relative: str) -> str | None:
    """Why `relative` (a path inside the repository, `/`-separated) is never shown, or None."""
    parts = [p for p in relative.replace("\\", "/").split("/") if p not in ("", ".")]
    for part in parts:
        if part.lower() == ".git":
            return "the repository's .git folder is never shown"
        if part.lower().startswith(".env"):
            return "environment files (.env*) are never shown"
    name = parts[-1].lower() if parts else ""
    if any(fnmatch.fnmatchcase(name, pattern) for pattern in KEY_NAMES):
        return "key and credential files are never shown"
    return None


#: The same rules as git pathspecs, so a commit's diff leaves those files out.
DIFF_EXCLUDES = (
    ":(exclude,glob,icase)**/.env*", ":(exclude,glob,icase)**/.env*/**",
    *(f":(exclude,glob,icase)**/{pattern}" for pattern in KEY_NAMES),
)
