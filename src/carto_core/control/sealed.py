"""Encrypted backups: a stream sealed with AES-256-GCM in chunks, the key from a passphrase
(scrypt) or a key file. Needs the `backup` extra (`cryptography`); nothing else imports it.

File layout::

    b"CARTO-SEALED-1\\n"                    magic (15 bytes)
    u32 big-endian n, then n bytes          the header, JSON: {"kdf": "scrypt", "salt", "n", "r",
                                            "p"} or {"kdf": "key-file", "salt"}; "cipher":
                                            "AES-256-GCM"; "chunk": bytes per chunk; "nonce": the
                                            7-byte nonce prefix (base64)
    chunks                                  u32 big-endian length, then the ciphertext (its
                                            16-byte tag included)

Each chunk is encrypted with the nonce `prefix (7) || counter (4, big-endian) || last (1)`,
`last` being 1 on the final chunk only, and the header's bytes as associated data: the STREAM
construction (Hoang, Reyhanitabar, Rogaway, Vizár 2015), so a chunk cannot be moved, dropped,
repeated or taken from another backup, a cut-off file lacks its final chunk, and the header
cannot be altered, without the open failing. The key: scrypt (N 2^17, r 8, p 1: 128 MiB, the
interactive-login parameters of RFC 7914's authors' successors, OWASP) of the passphrase with a
random 16-byte salt; or HKDF-SHA256 of a key file's 32 bytes (raw, hex or base64) with the salt.

A wrong passphrase or key and a corrupted file fail the same way (the first chunk's tag does not
verify): `SealError` says which it can tell.
"""

from __future__ import annotations

import base64
import json
import os
import struct
from pathlib import Path

MAGIC = b"CARTO-SEALED-1\n"
CHUNK = 1 << 20
SCRYPT = {"n": 1 << 17, "r": 8, "p": 1}
_TAG = 16


class SealError(Exception):
    """A sealed file that cannot be opened: wrong key, corrupted or cut off, not sealed."""


def require_cipher() -> None:
    """SealError naming the extra to install when the cipher's package is missing: asked before
    anything is sealed or opened."""
    _crypto()


def _crypto():
    try:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    except ImportError:  # pragma: no cover - depends on the install
        raise SealError("encryption needs the `backup` extra: pip install 'carto-core[backup]' "
                        "(the cryptography package)") from None
    return AESGCM


def sealed_kdf(path: os.PathLike | str) -> str | None:
    """How a sealed file's key is derived ("scrypt": a passphrase, "key-file"), None when the
    file is not sealed or its header cannot be read."""
    try:
        with open(path, "rb") as handle:
            if handle.read(len(MAGIC)) != MAGIC:
                return None
            size = struct.unpack(">I", handle.read(4))[0]
            return json.loads(handle.read(size)).get("kdf")
    except (OSError, struct.error, ValueError, AttributeError):
        return None


def is_sealed(path: os.PathLike | str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def read_key_file(path: os.PathLike | str) -> bytes:
    """A key file's 32 bytes: raw, or written as 64 hex digits or base64."""
    data = Path(path).read_bytes()
    if len(data) == 32:
        return data
    text = data.strip()
    for decode in (lambda t: bytes.fromhex(t.decode("ascii")),
                   lambda t: base64.b64decode(t, validate=True)):
        try:
            key = decode(text)
        except (ValueError, UnicodeDecodeError):
            continue
        if len(key) == 32:
            return key
    raise SealError(f"{path}: a key file holds 32 bytes (raw, 64 hex digits or base64); "
                    "`carto backup --new-key-file PATH` makes one")


def new_key_file(path: os.PathLike | str) -> Path:
    """Write 32 random bytes, base64, to a new 0600 file; the folders it needs are made 0700
    (`~/.config/carto/`, where the docs put it, may not exist yet)."""
    from carto_core.util.privatefiles import make_dirs

    path = Path(path)
    make_dirs(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(base64.b64encode(os.urandom(32)) + b"\n")
    return path


class Secret:
    """What opens or seals a file: a passphrase or a key file's bytes."""

    def __init__(self, *, passphrase: str | None = None, key: bytes | None = None):
        if (passphrase is None) == (key is None):
            raise ValueError("a passphrase or a key, one of them")
        self.passphrase = passphrase
        self.key = key

    def header(self) -> dict:
        salt = base64.b64encode(os.urandom(16)).decode()
        if self.passphrase is not None:
            return {"kdf": "scrypt", "salt": salt, **SCRYPT}
        return {"kdf": "key-file", "salt": salt}

    def derive(self, header: dict) -> bytes:
        salt = base64.b64decode(header["salt"])
        if header.get("kdf") == "scrypt":
            if self.passphrase is None:
                raise SealError("this backup is sealed with a passphrase, not a key file")
            from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

            return Scrypt(salt=salt, length=32, n=int(header["n"]), r=int(header["r"]),
                          p=int(header["p"])).derive(self.passphrase.encode("utf-8"))
        if header.get("kdf") == "key-file":
            if self.key is None:
                raise SealError("this backup is sealed with a key file, not a passphrase")
            from cryptography.hazmat.primitives import hashes
            from cryptography.hazmat.primitives.kdf.hkdf import HKDF

            return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt,
                        info=b"carto sealed v1").derive(self.key)
        raise SealError(f"unknown key derivation {header.get('kdf')!r}")


def _nonce(prefix: bytes, counter: int, last: bool) -> bytes:
    return prefix + struct.pack(">I", counter) + (b"\x01" if last else b"\x00")


class SealingWriter:
    """A writable binary file object: what is written goes out sealed, chunk by chunk."""

    def __init__(self, out, secret: Secret, chunk: int = CHUNK):
        AESGCM = _crypto()
        header = {**secret.header(), "cipher": "AES-256-GCM", "chunk": chunk,
                  "nonce": base64.b64encode(os.urandom(7)).decode()}
        self._header = json.dumps(header, sort_keys=True).encode()
        self._aead = AESGCM(secret.derive(header))
        self._prefix = base64.b64decode(header["nonce"])
        self._out = out
        self._chunk = chunk
        self._buffer = bytearray()
        self._counter = 0
        self.closed = False
        out.write(MAGIC + struct.pack(">I", len(self._header)) + self._header)

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self._buffer += data
        while len(self._buffer) > self._chunk:  # keep one back: the last chunk is marked
            self._emit(bytes(self._buffer[:self._chunk]), last=False)
            del self._buffer[:self._chunk]
        return len(data)

    def _emit(self, data: bytes, *, last: bool) -> None:
        sealed = self._aead.encrypt(_nonce(self._prefix, self._counter, last), data, self._header)
        self._out.write(struct.pack(">I", len(sealed)) + sealed)
        self._counter += 1

    def flush(self) -> None:
        self._out.flush()

    def close(self) -> None:
        if not self.closed:
            self._emit(bytes(self._buffer), last=True)
            self._buffer.clear()
            self.closed = True
            self._out.flush()


def unseal(source: os.PathLike | str, out, secret: Secret) -> int:
    """Open `source` into the binary file `out`; returns the bytes written. Raises SealError."""
    AESGCM = _crypto()
    from cryptography.exceptions import InvalidTag

    with open(source, "rb") as handle:
        if handle.read(len(MAGIC)) != MAGIC:
            raise SealError(f"{source}: not an encrypted carto backup")
        try:
            size = struct.unpack(">I", handle.read(4))[0]
            raw = handle.read(size)
            header = json.loads(raw)
        except (struct.error, ValueError):
            raise SealError(f"{source}: its header is damaged") from None
        if header.get("cipher") != "AES-256-GCM":
            raise SealError(f"{source}: unknown cipher {header.get('cipher')!r}")
        aead = AESGCM(secret.derive(header))
        prefix = base64.b64decode(header["nonce"])
        counter = written = 0
        while True:
            head = handle.read(4)
            if len(head) < 4:
                raise SealError(f"{source}: cut off (its last part is missing): the backup is "
                                "incomplete or corrupted")
            length = struct.unpack(">I", head)[0]
            sealed = handle.read(length)
            if len(sealed) < length or length < _TAG:
                raise SealError(f"{source}: cut off inside part {counter + 1}: the backup is "
                                "incomplete or corrupted")
            last = handle.peek(1)[:1] == b"" if hasattr(handle, "peek") else False
            try:
                data = aead.decrypt(_nonce(prefix, counter, last), sealed, raw)
            except InvalidTag:
                if counter == 0:
                    raise SealError("wrong passphrase or key file, or the backup is corrupted "
                                    "(its first part does not verify)") from None
                raise SealError(f"{source}: corrupted (part {counter + 1} does not verify)") from None
            out.write(data)
            written += len(data)
            counter += 1
            if last:
                return written
