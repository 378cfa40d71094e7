"""One session page (`views.sessions_page`) for the three lists made of session summaries: the
explorer's `views.list_sessions`, `carto sessions` and the team lens's own-home list
(`team.lenses.home_sessions`, what `carto sessions --team` shows without a team)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.evaluation.sample import SESSIONS, build_sample_home
from carto_core.lenses import views
from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.lenses.sessionstore import cached_summaries
from carto_core.team.lenses import home_sessions


def test_a_page_selects_orders_limits_and_counts(tmp_path):
    home = build_sample_home(tmp_path / "h")
    summaries = views.session_summaries_by_id(LiveCorpus(home))
    page = views.sessions_page(summaries.values(), cutoff=None, project="webshop", provider=None, limit=2)
    assert [s["session_id"] for s in page["sessions"]] == [SESSIONS["b"], SESSIONS["a"]]
    assert page["sessions"] == [views.session_out(summaries[SESSIONS[k]]) for k in ("b", "a")]
    assert {k: v for k, v in page.items() if k != "sessions"} == {"total": 4, "days": None, "index_generation": 1}
    assert list(page) == ["sessions", "total", "days", "index_generation"]
    only = views.sessions_page(summaries.values(), cutoff=None, project=None, provider=None, limit=50,
                               only={SESSIONS["f"], SESSIONS["c"]}, with_bursts=True, days=7, generation=3)
    assert [s["session_id"] for s in only["sessions"]] == [SESSIONS["c"], SESSIONS["f"]]
    assert all(isinstance(s["bursts"], list) for s in only["sessions"])
    assert (only["total"], only["days"], only["index_generation"]) == (2, 7, 3)


def test_the_explorer_the_cli_and_the_team_lens_list_through_the_one_page(tmp_path, monkeypatch):
    home = build_sample_home(tmp_path / "h")
    made: list[int] = []
    real = views.sessions_page

    def counted(*args, **kwargs):
        made.append(kwargs["limit"])
        return real(*args, **kwargs)

    monkeypatch.setattr(views, "sessions_page", counted)
    served = views.list_sessions(LiveCorpus(home), days=None, project="webshop", provider=None, limit=3)
    own = home_sessions(cached_summaries(home), since=None, project="webshop", provider=None, limit=3)
    done = CliRunner().invoke(cli, ["sessions", "--project", "webshop", "-n", "3", "--json"],
                              env={"CARTO_HOME": str(home.root)})
    assert done.exit_code == 0, done.output
    listed = json.loads(done.output)
    assert made == [3, 3, 3]
    ids = [SESSIONS[k] for k in ("b", "a", "f")]
    for page in (served, own, listed):
        assert ([s["session_id"] for s in page["sessions"]], page["total"]) == (ids, 4)
    assert served["sessions"] == own["sessions"] == listed["sessions"]
    assert (served["days"], own["days"], "days" in listed, listed["since"]) == (None, None, False, None)
