"""carto_core.util.deferred: the stand-ins a one-shot search puts in for the modules pathlib imports
(urllib.parse, ipaddress, ntpath, fnmatch) and a search never uses behave as the modules do once used (each check in a fresh process:
the stand-ins exist only where the real modules were not imported yet)."""

from __future__ import annotations

import json
import subprocess
import sys

USE = r"""
import json, sys
from carto_core.util.deferred import Deferred, defer
defer()
import pathlib
before = {m: type(sys.modules[m]).__name__ for m in ("ipaddress", "urllib.parse")}
import ipaddress, urllib.parse
from urllib.parse import urlencode, quote_from_bytes
out = {
    "before": before,
    "uri": pathlib.Path("/tmp/a b").as_uri(),
    "split": list(urllib.parse.urlsplit("http://[::1]:80/x?q=1")),
    "encode": urlencode({"a": 1, "b": "c d"}),
    "quote": quote_from_bytes(b"a b/c"),
    "v6": isinstance(ipaddress.ip_address("::1"), ipaddress.IPv6Address),
    "same_class": ipaddress.IPv4Address is sys.modules["ipaddress"].IPv4Address,
    "package_attr": sys.modules["urllib"].parse is sys.modules["urllib.parse"],
    "after": {m: type(sys.modules[m]).__name__ for m in ("ipaddress", "urllib.parse")},
}
print(json.dumps(out))
"""


def test_a_deferred_module_is_the_module_once_used():
    done = subprocess.run([sys.executable, "-c", USE], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    assert out["before"] == {"ipaddress": "Deferred", "urllib.parse": "Deferred"}
    assert out["uri"] == "file:///tmp/a%20b"
    assert out["split"] == ["http", "[::1]:80", "/x", "q=1", ""]
    assert out["encode"] == "a=1&b=c+d" and out["quote"] == "a%20b/c"
    assert out["v6"] and out["same_class"] and out["package_attr"]
    assert out["after"] == {"ipaddress": "module", "urllib.parse": "module"}


PATHS = r"""
import json, sys
from carto_core.util.deferred import defer
defer()
import pathlib
before = {m: type(sys.modules[m]).__name__ for m in ("ntpath", "fnmatch")}
import ntpath, fnmatch
from ntpath import splitdrive
out = {
    "before": before,
    "windows": str(pathlib.PureWindowsPath("C:/a/b") / "c"),
    "drive": pathlib.PureWindowsPath("C:/a/b").drive,
    "splitdrive": list(splitdrive("D:\\x\\y")),
    "join": ntpath.join("a", "b"),
    "match": pathlib.PurePosixPath("/x/y.py").match("*.py"),
    "nomatch": pathlib.PurePosixPath("/x/y.py").match("*.rs"),
    "glob": sorted(p.name for p in pathlib.Path(sys.argv[1]).glob("*.txt")),
    "filter": fnmatch.filter(["a.py", "b.rs"], "*.py"),
    "translate_same": fnmatch.translate is sys.modules["fnmatch"].translate,
    "after": {m: type(sys.modules[m]).__name__ for m in ("ntpath", "fnmatch")},
}
print(json.dumps(out))
"""


def test_pathlibs_windows_paths_and_patterns_work_through_the_stand_ins(tmp_path):
    for name in ("one.txt", "two.txt", "three.md"):
        (tmp_path / name).write_text("x")
    done = subprocess.run([sys.executable, "-c", PATHS, str(tmp_path)], capture_output=True,
                          text=True, check=True)
    out = json.loads(done.stdout)
    assert out["before"] == {"ntpath": "Deferred", "fnmatch": "Deferred"}
    assert out["windows"] == "C:\\a\\b\\c" and out["drive"] == "C:"
    assert out["splitdrive"] == ["D:", "\\x\\y"] and out["join"] == "a\\b"
    assert out["match"] is True and out["nomatch"] is False
    assert out["glob"] == ["one.txt", "two.txt"] and out["filter"] == ["a.py"]
    assert out["translate_same"]
    assert out["after"] == {"ntpath": "module", "fnmatch": "module"}


def test_modules_already_imported_are_left_alone():
    code = ("import sys, urllib.parse, ipaddress\n"
            "from carto_core.util.deferred import defer\n"
            "real = sys.modules['urllib.parse']\n"
            "defer()\n"
            "print(sys.modules['urllib.parse'] is real and type(sys.modules['ipaddress']).__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "module"
