"""`carto backup` and `carto restore`: a consistent snapshot (every row a hook appended before it
began is in it, with hooks appending meanwhile), rotated, sealed with a passphrase or a key
file; a wrong key, a damaged or cut-off backup refused with one line and exit 1; a home never
replaced without --force."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path

import pytest

from carto_core.logio.home import current_home
from carto_core.logio.logs import SEARCHED_LOGS
from tests.control.conftest import MARK, P, invoke, light_home

CTX = multiprocessing.get_context("fork")


def _logs(root: Path) -> dict:
    return {name: (root / name).read_bytes() for name in SEARCHED_LOGS.values() if (root / name).exists()}


@pytest.fixture
def home():
    return light_home(current_home().root)


def _one_backup(folder: Path) -> Path:
    [found] = sorted(folder.glob("carto-backup-*"))
    return found


@pytest.mark.parametrize("seal", ["none", "passphrase", "key-file"])
def test_backup_and_restore_give_back_the_logs_and_the_state(home, tmp_path, seal):
    invoke("forget", "--event", home.ids[P][0], "--write")  # a tombstone to carry over
    args, opening = [], []
    if seal == "passphrase":
        (tmp_path / "pw").write_text("correct horse battery staple\n")
        args = opening = ["--passphrase-file", tmp_path / "pw"]
    elif seal == "key-file":
        invoke("backup", "--new-key-file", tmp_path / "key")
        assert oct((tmp_path / "key").stat().st_mode & 0o777) == "0o600"
        args = opening = ["--key-file", tmp_path / "key"]
    done = json.loads(invoke("backup", "--dir", tmp_path / "backups", "--json", *args).stdout)
    assert done["sealed"] == (seal != "none")
    path = Path(done["backup"])
    assert path.parent == tmp_path / "backups" and oct(path.stat().st_mode & 0o777) == "0o600"
    if seal != "none":
        assert MARK.encode() not in path.read_bytes()  # sealed: nothing readable
    target = tmp_path / "restored"
    restored = json.loads(invoke("restore", path, "--json", *opening, env={"CARTO_HOME": str(target)}).stdout)
    assert restored["rows"] == done["rows"] and restored["replaced_home_kept_at"] is None
    assert _logs(target) == _logs(home.root)
    assert (target / ".carto" / "tombstones.bin").read_bytes() == (home.state / "tombstones.bin").read_bytes()
    assert (target / ".carto" / "checkpoints" / "claude.json").exists()
    assert not (target / ".carto" / "search").exists()  # derived stores are rebuilt, not restored
    answer = json.loads(invoke("search", MARK, "--json", "--all", "--no-semantic",
                               env={"CARTO_HOME": str(target)}).output)
    assert answer["results"]


@pytest.mark.parametrize("damage", ["wrong passphrase", "key file for a passphrase", "flipped byte",
                                    "cut off", "cut at a chunk", "plain flipped byte"])
def test_a_wrong_key_or_a_damaged_backup_is_refused_with_one_line(home, tmp_path, damage):
    (tmp_path / "pw").write_text("right")
    (tmp_path / "wrong").write_text("wrong")
    invoke("backup", "--new-key-file", tmp_path / "key")
    args = [] if damage == "plain flipped byte" else ["--passphrase-file", tmp_path / "pw"]
    path = Path(json.loads(invoke("backup", "--dir", tmp_path / "b", "--json", *args).stdout)["backup"])
    opening = ["--passphrase-file", tmp_path / ("wrong" if damage == "wrong passphrase" else "pw")]
    data = bytearray(path.read_bytes())
    if damage == "key file for a passphrase":
        opening = ["--key-file", tmp_path / "key"]
    elif damage in ("flipped byte", "plain flipped byte"):
        data[len(data) // 2] ^= 0x01
    elif damage == "cut off":
        data = data[: len(data) - 100]
    elif damage == "cut at a chunk":
        data = data[: len(data) // 2]
    if damage == "plain flipped byte":
        opening = []
    path.write_bytes(bytes(data))
    target = tmp_path / "restored"
    done = invoke("restore", path, *opening, env={"CARTO_HOME": str(target)}, ok=(1,))
    assert done.output.startswith("carto: restore: ") and done.output.count("\n") == 1
    assert "Traceback" not in done.output
    assert not target.exists()
    assert not [p for p in tmp_path.iterdir() if ".restoring-" in p.name or ".unsealed-" in p.name]


@pytest.mark.parametrize("how", ["--passphrase-file", "--key-file", "CARTO_BACKUP_PASSPHRASE"])
def test_sealing_without_the_backup_extra_says_what_to_install_in_one_line(home, tmp_path,
                                                                          monkeypatch, how):
    """The user install has no cryptography: `carto backup --encrypt` (or a key, or the
    passphrase in the environment) ended in a SealError traceback. One line naming the extra,
    exit 1, and no backup file left."""
    import sys

    (tmp_path / "pw").write_text("right")
    invoke("backup", "--new-key-file", tmp_path / "key")  # a key is made without the cipher
    monkeypatch.setitem(sys.modules, "cryptography.hazmat.primitives.ciphers.aead", None)
    args = {"--passphrase-file": ["--passphrase-file", tmp_path / "pw"],
            "--key-file": ["--key-file", tmp_path / "key"]}.get(how, [])
    env = {"CARTO_BACKUP_PASSPHRASE": "right"} if how == "CARTO_BACKUP_PASSPHRASE" else None
    done = invoke("backup", "--dir", tmp_path / "b", *args, env=env, ok=(1,))
    assert done.output.count("\n") == 1 and "Traceback" not in done.output
    assert "pip install 'carto-core[backup]'" in done.output and done.output.startswith("carto: ")
    assert not list((tmp_path / "b").glob("carto-backup-*"))


def test_a_home_is_never_replaced_without_force_and_is_kept_when_it_is(home, tmp_path):
    path = Path(json.loads(invoke("backup", "--dir", tmp_path / "b", "--json").stdout)["backup"])
    before = _logs(home.root)
    refused = invoke("restore", path, ok=(4,))
    assert "--force" in refused.output and _logs(home.root) == before
    (home.root / "changelog.jsonl").write_bytes(b'{"event_id":"after"}\n')
    done = json.loads(invoke("restore", path, "--force", "--json").stdout)
    kept = Path(done["replaced_home_kept_at"])
    assert (kept / "changelog.jsonl").read_bytes() == b'{"event_id":"after"}\n'
    assert _logs(home.root) == before


def test_backups_rotate_and_never_go_inside_the_home(home, tmp_path):
    for _ in range(4):
        invoke("backup", "--dir", tmp_path / "b", "--keep", 2)
    assert len(list((tmp_path / "b").glob("carto-backup-*"))) == 2
    inside = invoke("backup", "--dir", home.root / "backups", ok=(1,))
    assert "inside the home" in inside.output
    # Through a link to a folder of the home: still inside it.
    (tmp_path / "link").symlink_to(home.state)
    linked = invoke("backup", "--dir", tmp_path / "link" / "b", ok=(1,))
    assert "inside the home" in linked.output and not (home.state / "b").exists()


def _append_forever(root: str, writer: int, acked, stop) -> None:
    """A hook's appends: one row after another, `acked` bumped once each append returned."""
    from carto_core.logio.appendlog import append_rows

    n = 0
    path = Path(root) / "tool-use-log.jsonl"
    while not stop.is_set():
        append_rows(path, [{"event_id": f"evt-w{writer}-{n:06d}", "summary": f"row {n} " + "x" * 200}])
        n += 1
        acked.value = n


def test_a_backup_taken_while_hooks_append_holds_every_row_acknowledged_before_it(home, tmp_path):
    from carto_core.control.backup import BackupSettings, backup, restore

    stop = CTX.Event()
    counters = [CTX.Value("l", 0) for _ in range(3)]
    writers = [CTX.Process(target=_append_forever, args=(str(home.root), i, counters[i], stop))
               for i in range(3)]
    for writer in writers:
        writer.start()
    try:
        while min(c.value for c in counters) < 200:
            time.sleep(0.01)
        acked = [c.value for c in counters]  # acknowledged before the backup begins
        done = backup(home, settings=BackupSettings(home, {"dir": str(tmp_path / "b")}))
        during = [c.value for c in counters]
    finally:
        stop.set()
        for writer in writers:
            writer.join(30)
    # rows really were appended meanwhile: by some writer (on a loaded machine one of three
    # may not be scheduled during a backup of a few milliseconds)
    assert any(d > a for d, a in zip(during, acked)), (acked, during)
    from carto_core.logio.home import Home

    target = Home(tmp_path / "restored")
    restore(target, Path(done["backup"]))
    ids = set()
    for raw in (target.root / "tool-use-log.jsonl").read_bytes().splitlines():
        if not raw:
            continue  # an appender that saw another's row still landing sealed it (records.md)
        try:
            row = json.loads(raw)  # every line whole: no row cut in half
        except ValueError:
            raise AssertionError(f"a line cut: {raw[:80]!r}...{raw[-80:]!r}") from None
        ids.add(row["event_id"])
    for writer, count in enumerate(acked):
        missing = [n for n in range(count) if f"evt-w{writer}-{n:06d}" not in ids]
        assert missing == [], (writer, missing[:5])


def test_the_keep_up_job_takes_a_daily_backup_when_asked(home, tmp_path):
    from carto_core.control.backup import daily
    from carto_core.jobs.keepup import run

    config = Path(os.environ["XDG_CONFIG_HOME"]) / "carto" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    assert daily(home) is None  # not asked for
    config.write_text(f'[backup]\ndaily = true\ndir = "{tmp_path / "b"}"\nkeep = 3\n')
    run(home)  # the keep-up job's body: embeds, then the daily backup
    assert len(list((tmp_path / "b").glob("carto-backup-*"))) == 1
    assert daily(home) is None  # a day has not passed
    assert daily(home, now=time.time() + 86401)["backup"]
    assert len(list((tmp_path / "b").glob("carto-backup-*"))) == 2


@pytest.mark.parametrize("cut", ["at a chunk boundary", "one chunk moved", "a chunk twice", "extra bytes"])
def test_the_seal_refuses_a_stream_cut_at_a_chunk_or_reordered(tmp_path, cut):
    """Chunks carry their number and a last-chunk flag: a backup cut exactly between two chunks,
    or with chunks moved or repeated, does not open (each chunk alone would verify)."""
    import io
    import struct

    from carto_core.control.sealed import MAGIC, SealError, SealingWriter, Secret, unseal

    secret = Secret(key=os.urandom(32))
    out = io.BytesIO()
    writer = SealingWriter(out, secret, chunk=100)
    writer.write(os.urandom(1000))
    writer.close()
    data = out.getvalue()
    size = struct.unpack(">I", data[len(MAGIC):len(MAGIC) + 4])[0]
    start = len(MAGIC) + 4 + size
    chunks, at = [], start
    while at < len(data):
        length = struct.unpack(">I", data[at:at + 4])[0]
        chunks.append(data[at:at + 4 + length])
        at += 4 + length
    assert len(chunks) == 10
    head = data[:start]
    body = {"at a chunk boundary": chunks[:6], "one chunk moved": [chunks[1], chunks[0], *chunks[2:]],
            "a chunk twice": [chunks[0], *chunks], "extra bytes": [*chunks, b"\x00\x00\x00\x00"]}[cut]
    path = tmp_path / "b.sealed"
    path.write_bytes(head + b"".join(body))
    with pytest.raises(SealError):
        unseal(path, io.BytesIO(), secret)
    path.write_bytes(data)
    whole = io.BytesIO()
    assert unseal(path, whole, secret) == 1000


def test_a_new_key_file_goes_where_the_docs_put_it_even_before_that_folder_exists(home, tmp_path):
    key = tmp_path / "config" / "carto" / "backup.key"  # as ~/.config/carto/backup.key on a new machine
    said = invoke("backup", "--new-key-file", key).output
    assert said == f"{key}: a new key (keep a copy apart from the backups: without it they cannot be opened)\n"
    assert oct(key.stat().st_mode & 0o777) == "0o600" and oct(key.parent.stat().st_mode & 0o777) == "0o700"
    done = json.loads(invoke("backup", "--dir", tmp_path / "backups", "--key-file", key, "--json").stdout)
    assert done["sealed"]


def test_a_backup_sealed_with_the_configured_key_file_is_restored_without_flags(home, tmp_path):
    key = tmp_path / "backup.key"
    invoke("backup", "--new-key-file", key)
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "carto" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'[backup]\ndir = "{tmp_path / "b"}"\nkey_file = "{key}"\n')
    try:
        done = json.loads(invoke("backup", "--json").stdout)
        assert done["sealed"]
        target = tmp_path / "restored"
        said = invoke("restore", done["backup"], env={"CARTO_HOME": str(target)}).output
        assert said.startswith(f"{target}: restored {done['rows']} rows from {done['backup']}")
        assert _logs(target) == _logs(home.root)
        # Sealed with a passphrase: the configured key is not tried, the passphrase is asked for.
        (tmp_path / "pw").write_text("right")
        other = json.loads(invoke("backup", "--passphrase-file", tmp_path / "pw", "--json").stdout)
        asked = invoke("restore", other["backup"], env={"CARTO_HOME": str(tmp_path / "r2")}, ok=(2,))
        assert "a passphrase is needed" in asked.output
    finally:
        config.unlink()


def test_a_restore_keeps_the_team_password_of_the_home_it_replaces_and_never_names_another_homes(home, tmp_path):
    url = "postgresql://alice:s3cret-pw@127.0.0.1:1/carto"
    invoke("team", "init", url, "--team", "acme", "--no-check")
    passfile = home.state / "team" / "pgpass"
    before = passfile.read_bytes()
    done = json.loads(invoke("backup", "--dir", tmp_path / "backups", "--json").stdout)
    with __import__("tarfile").open(done["backup"]) as archive:
        assert not any(name.endswith("pgpass") for name in archive.getnames())
    # Restored over this home: the password file of the home it replaced comes along.
    invoke("restore", done["backup"], "--force")
    settings = json.loads((home.state / "team" / "team.json").read_text())
    assert settings["passfile"] == str(passfile)
    assert passfile.read_bytes() == before and oct(passfile.stat().st_mode & 0o777) == "0o600"
    # Restored as another home: it has no password file, and does not use this one.
    target = tmp_path / "elsewhere"
    invoke("restore", done["backup"], env={"CARTO_HOME": str(target)})
    elsewhere = json.loads((target / ".carto" / "team" / "team.json").read_text())
    assert elsewhere["passfile"] is None and not (target / ".carto" / "team" / "pgpass").exists()


def _logs_and_tombstones(home) -> tuple[dict, bytes]:
    return _logs(home.root), (home.state / "tombstones.bin").read_bytes()


def test_a_restore_over_a_home_keeps_out_what_it_forgot_after_the_backup(full_home, tmp_path):
    from tests.control.conftest import files_holding

    home = full_home.home
    backup_path = json.loads(invoke("backup", "--dir", tmp_path / "b", "--json").stdout)["backup"]
    forgot = json.loads(invoke("forget", "--project", P, "--write", "--json").stdout)
    after_forget = _logs_and_tombstones(home)
    assert files_holding(home.root, [P, MARK]) == []

    document = json.loads(invoke("restore", backup_path, "--force", "--json").stdout)
    # The events the home forgot are not brought back, in any log, telemetry or state file;
    # the rest of the backup is, and its tombstones go on keeping them out.
    assert files_holding(home.root, [P, MARK]) == []
    assert _logs_and_tombstones(home) == after_forget
    assert document["forgotten"]["events"] == forgot["events"] > 0
    assert document["forgotten"]["logs"] == {label: n for label, n in forgot["removed"].items() if n}
    again = json.loads(invoke("ingest", "claude", "--settle", "0", "--json").stdout)
    assert again["rows_written"] == 0 and again["skipped"].get("forgotten", 0) > 0
    # Restored into an empty folder, the backup comes back whole: the way to see it as it was.
    whole = tmp_path / "whole"
    elsewhere = json.loads(invoke("restore", backup_path, "--json", env={"CARTO_HOME": str(whole)}).stdout)
    assert elsewhere["forgotten"] is None and files_holding(whole, [MARK])


def test_a_restore_says_what_it_kept_out(home, tmp_path):
    path = json.loads(invoke("backup", "--dir", tmp_path / "b", "--json").stdout)["backup"]
    invoke("forget", "--project", P, "--write")
    text = invoke("restore", path, "--force").output
    whole = json.loads(invoke("restore", path, "--json", env={"CARTO_HOME": str(tmp_path / "w")}).stdout)["rows"]
    # "restored N rows" said the backup's count, the 28 kept out included
    assert f": restored {whole - 28} rows from " in text.splitlines()[0]
    assert ("  kept out 19 events (28 rows) the home it replaced had forgotten: forgetting "
            "survives a restore (restore into an empty folder to see the backup whole)") in text.splitlines()
    assert MARK.encode() not in (home.root / "turns.jsonl").read_bytes()


def test_a_forget_the_replaced_home_left_unfinished_is_finished_and_kept_out(home, tmp_path):
    from carto_core.control import forget as engine
    from carto_core.control.criteria import Criteria

    path = json.loads(invoke("backup", "--dir", tmp_path / "b", "--json").stdout)["backup"]

    class Killed(Exception):
        pass

    def die(name):
        if name == "intent":  # its ids written, none buried yet
            raise Killed

    reach = engine._reach
    engine._reach = die
    try:
        with pytest.raises(Killed):
            engine.forget(home, Criteria(projects=(P,)))
    finally:
        engine._reach = reach
    assert engine.pending(home) and MARK.encode() in (home.root / "turns.jsonl").read_bytes()
    invoke("restore", path, "--force")
    assert not engine.pending(home)
    assert all(MARK.encode() not in data for data in _logs(home.root).values())


def test_a_restore_over_a_home_with_unreadable_tombstones_is_refused(home, tmp_path):
    path = json.loads(invoke("backup", "--dir", tmp_path / "b", "--json").stdout)["backup"]
    before = _logs(home.root)
    (home.state / "tombstones.bin").write_bytes(b"not tombstones")
    refused = invoke("restore", path, "--force", ok=(1,))
    assert refused.output.startswith(f"carto: restore: {home.state / 'tombstones.bin'} cannot be read as tombstones")
    assert "restore into another folder" in refused.output and _logs(home.root) == before


def test_a_restore_over_a_home_keeps_its_team_settings_so_a_project_taken_off_stays_off(home, tmp_path):
    invoke("team", "init", "postgresql://alice@127.0.0.1:1/carto", "--team", "acme", "--no-check")
    invoke("team", "allow", "github.com/acme/shop", "github.com/acme/secret")
    path = json.loads(invoke("backup", "--dir", tmp_path / "b", "--json").stdout)["backup"]
    invoke("team", "allow", "--remove", "github.com/acme/secret")
    settings = home.state / "team" / "team.json"
    before = settings.read_text()
    done = json.loads(invoke("restore", path, "--force", "--json").stdout)
    assert done["team_settings"] == "replaced home"
    assert settings.read_text() == before and "github.com/acme/secret" not in before


def test_backup_and_export_say_their_size_as_a_person_reads_it_and_json_keeps_the_bytes(home, tmp_path):
    from carto_core.util.terminal import size

    said = invoke("backup", "--dir", tmp_path / "b").stdout
    [path] = (tmp_path / "b").glob("carto-backup-*")
    assert f", {size(path.stat().st_size)}, " in said and " bytes" not in said, said
    assert " KB, " in said, said  # the light home's backup is a few kilobytes
    exported = invoke("export", tmp_path / "x.tar.gz").stdout
    assert exported.rstrip().endswith(f"({size((tmp_path / 'x.tar.gz').stat().st_size)})"), exported
    assert " bytes" not in exported, exported
    document = json.loads(invoke("export", tmp_path / "y.tar.gz", "--json").stdout)
    assert document["bytes"] == (tmp_path / "y.tar.gz").stat().st_size
    assert [size(n) for n in (1, 980, 1024, 10648, 1048570, 3 * 1024 ** 3)] == [
        "1 byte", "980 bytes", "1.0 KB", "10.4 KB", "1.0 MB", "3.0 GB"]


def test_a_short_passphrase_is_warned_of_when_it_seals_not_when_it_opens(home, tmp_path):
    """`backup --passphrase-file f` with f holding "a" sealed with a one-character passphrase
    and said nothing: anyone holding the file can guess it offline."""
    (tmp_path / "pw").write_text("a\n")
    done = invoke("backup", "--dir", tmp_path / "b", "--passphrase-file", tmp_path / "pw", "--json")
    assert "carto: the passphrase is 1 character: whoever holds the backup" in done.stderr
    path = json.loads(done.stdout)["backup"]
    opened = invoke("restore", path, "--passphrase-file", tmp_path / "pw",
                    env={"CARTO_HOME": str(tmp_path / "r")})
    assert "passphrase is" not in opened.stderr
    for text, warned in (("elevenchars", True), ("twelve chars", False)):
        (tmp_path / "pw2").write_text(text + "\n")
        sealed = invoke("backup", "--dir", tmp_path / text, "--passphrase-file", tmp_path / "pw2")
        assert ("carto: the passphrase is" in sealed.stderr) == warned, (text, sealed.stderr)
