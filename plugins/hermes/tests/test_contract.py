"""carto-hermes against the source contract suite shipped in core (carto_core.testing)."""

from __future__ import annotations

import pytest

from carto_core.testing import SourceContract
from carto_hermes.fixtures import T0, HermesHome, call
from carto_hermes.policy import policy_from_dict
from carto_hermes.source import HermesSource

pytest_plugins = ["carto_core.testing"]


def make_source(root, tmp_path) -> HermesSource:
    policy = policy_from_dict({"hermes_home": str(root), "sources": ["desktop", "cron"],
                               "corpus_root": str(tmp_path / "dev"),
                               "artifacts": [{"kind": "plan", "dir": str(tmp_path / "plans")}]})
    return HermesSource({"policy": policy, "_now": T0 + 86400})


class TestHermesContract(SourceContract):
    @pytest.fixture
    def source(self, tmp_path):
        home = HermesHome(tmp_path / "hermes")
        db = home.db()
        db.session("s1", title="Contract run", cwd=str(tmp_path / "dev" / "carto"))
        db.conversation("s1", [("first\nprompt", "multi\nline reply"), ("second", "done")],
                        tools={0: [call("terminal", command="ls")]})
        db.session("cron_0a1b_20260925_040300", source="cron", title="digest · Sep 25 04:03")
        db.conversation("cron_0a1b_20260925_040300", [("cron prompt", "cron result")])
        # a second profile on the old minimal schema
        old_db = HermesHome(tmp_path / "hermes" / "profiles" / "legacy", schema="old").db()
        old_db.session("old1")
        old_db.conversation("old1", [("old prompt", "old reply"), ("more", "ok")])
        (tmp_path / "plans").mkdir()
        (tmp_path / "plans" / "roadmap.md").write_text("# Roadmap\n\nKit first.\n", "utf-8")
        return make_source(home.root, tmp_path)

    @pytest.fixture
    def garbage_source(self, tmp_path):
        home = HermesHome(tmp_path / "hermes")
        db = home.db()
        db.session("messy")
        db.message("messy", "user", "\x00json:{broken", T0 + 1)
        db.message("messy", "user", "a prompt", T0 + 2)
        db.message("messy", "assistant", "a reply", T0 + 3, tool_calls="[oops")
        db.message("messy", "session_meta", "x", T0 + 4)
        db.message("messy", "user", "another", T0 + 5)
        (tmp_path / "plans").mkdir()
        (tmp_path / "plans" / "bad.md").write_bytes(b"# Bad \xff bytes\n\nbody\n")
        return make_source(home.root, tmp_path)
