"""`carto trustmap --apply`: the autoMode.environment change as a diff, a backup, the merge, a
trustmap_update milestone; again only the delta; Kubernetes namespaces and contexts derived;
a settings file that is not JSON refused with nothing changed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.lenses.trustmap import kube_identifiers

from .conftest import run

COMMANDS = [
    "kubectl -n payments get pods", "kubectl --context prod-eu apply -f deploy.yaml",
    "kubectl config use-context staging-us && kubectl get ns", "helm upgrade api ./chart --namespace=api-v2 --kube-context ops",
    "aws s3 cp s3://team-bucket/report.csv .", "npm install --registry https://npm.corp.internal/",
]


def tool_rows(commands, start=0):
    return [{"event_id": f"evt-k{start + n:011d}", "timestamp": "2026-11-20T10:00:00Z", "type": "tool_bash",
             "provider": "claude", "tool": "Bash", "summary": f"Ran: {c}", "project": "shop", "cwd": "/w/shop",
             "session": "s1", "salience": 0.2} for n, c in enumerate(commands)]


@pytest.fixture
def home(tmp_path, monkeypatch):
    root = tmp_path / "h"
    monkeypatch.setenv("CARTO_HOME", str(root))
    home = Home(root)
    append_rows(home.log("tool-use"), tool_rows(COMMANDS))
    append_rows(home.log("research"), [
        {"event_id": "evt-r00000000001", "timestamp": "2026-11-20T10:00:00Z", "type": "fetch",
         "url": "https://docs.corp.internal/runbook", "session": "s1", "project": "shop"},
        {"event_id": "evt-r00000000002", "timestamp": "2026-11-20T10:00:00Z", "type": "fetch",
         "url": "https://example.com/once", "session": "s1", "project": "shop"}])
    return home


@pytest.fixture
def settings(tmp_path):
    path = tmp_path / "claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"model": "opus", "permissions": {"allow": ["Bash(ls)"]}}, indent=2))
    return path


EXPECTED = ["Trusted host: docs.corp.internal", "Trusted host: npm.corp.internal", "Cloud storage bucket: s3://team-bucket",
            "Package registry: https://npm.corp.internal/", "Kubernetes namespace: api-v2",
            "Kubernetes namespace: payments", "Kubernetes context: ops", "Kubernetes context: prod-eu",
            "Kubernetes context: staging-us"]


def test_apply_diffs_backs_up_merges_and_records(home, settings):
    original = settings.read_bytes()
    dry = run("trustmap", "--apply", "--dry-run", "--settings", str(settings), "--json")
    assert sorted(p["entry"] for p in dry["proposed"]) == sorted(EXPECTED)
    assert settings.read_bytes() == original and not dry["applied"]
    assert "+      \"Kubernetes namespace: payments\"" in dry["diff"] or "Kubernetes namespace: payments" in dry["diff"]
    done = run("trustmap", "--apply", "--settings", str(settings), "--json")
    assert done["applied"] and Path(done["backup"]).read_bytes() == original
    after = json.loads(settings.read_text())
    assert after["model"] == "opus" and after["permissions"] == {"allow": ["Bash(ls)"]}
    environment = after["autoMode"]["environment"]
    assert environment[0] == "$defaults" and sorted(environment[1:]) == sorted(EXPECTED)
    assert "example.com" not in settings.read_text()  # a public host fetched once is not infrastructure
    milestones = [json.loads(l) for l in home.log("milestones").read_text().splitlines()]
    [row] = [m for m in milestones if m.get("milestone") == "trustmap_update"]
    assert row["event_id"] == done["milestone"] and row["event"] == "Trustmap"
    assert sorted(row["added"]) == sorted(EXPECTED)
    copies = [json.loads(l) for l in home.log("changelog").read_text().splitlines()]
    assert any(c["event_id"] == row["event_id"] and c["type"] == "milestone_trustmap_update" for c in copies)
    # again: nothing to propose, nothing written, no new backup
    backups = sorted(settings.parent.glob("settings.json.carto-backup-*"))
    again = run("trustmap", "--apply", "--settings", str(settings), "--json", ok=(3,))
    assert again["proposed"] == [] and not again["applied"]
    assert sorted(settings.parent.glob("settings.json.carto-backup-*")) == backups
    # one new namespace: only the delta
    append_rows(home.log("tool-use"), tool_rows(["kubectl -n billing logs api"], start=50))
    delta = run("trustmap", "--apply", "--settings", str(settings), "--json")
    assert [p["entry"] for p in delta["proposed"]] == ["Kubernetes namespace: billing"]
    assert json.loads(settings.read_text())["autoMode"]["environment"][-1] == "Kubernetes namespace: billing"


def test_an_existing_environment_is_kept_as_it_is(home, settings):
    settings.write_text(json.dumps({"autoMode": {"environment": ["Source control: github.com/acme"]}}))
    run("trustmap", "--apply", "--settings", str(settings))
    environment = json.loads(settings.read_text())["autoMode"]["environment"]
    assert environment[0] == "Source control: github.com/acme" and "$defaults" not in environment


@pytest.mark.parametrize("text", ['{"model": "opus",}', "[1, 2]", '{"autoMode": {"environment": "x"}}', "\x00"])
def test_settings_that_are_not_valid_json_are_refused_and_nothing_changes(home, settings, text):
    settings.write_text(text)
    before = sorted(p.name for p in settings.parent.iterdir())
    result = run("trustmap", "--apply", "--settings", str(settings), ok=(4,))
    assert "nothing was changed" in result.output
    assert settings.read_text() == text and sorted(p.name for p in settings.parent.iterdir()) == before
    assert not home.log("milestones").exists()


def test_a_missing_settings_file_is_created_with_defaults_first(home, tmp_path):
    path = tmp_path / "new" / "settings.json"
    done = run("trustmap", "--apply", "--settings", str(path), "--json")
    assert done["backup"] is None and json.loads(path.read_text())["autoMode"]["environment"][0] == "$defaults"
    assert oct(path.stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize("command,namespaces,contexts", [
    ("Ran: kubectl -n payments get pods", ["payments"], []),
    ("Ran: kubectl get pods --namespace=web --context=prod", ["web"], ["prod"]),
    ("Ran: KUBECONFIG=x kubectl config use-context arn:aws:eks:eu-west-1:1:cluster/main", [],
     ["arn:aws:eks:eu-west-1:1:cluster/main"]),
    ("Ran: helm install x . --kube-context ops -n tools", ["tools"], ["ops"]),
    ("Ran: kubens monitoring; kubectx dev", ["monitoring"], ["dev"]),
    ("Ran: grep -n payments file.txt", [], []),          # -n of another tool
    ("Ran: kubectl -n Bad_Name get pods", [], []),         # not a namespace name
    ("Modified: /w/kubectl -n x", [], []),                 # not a command
])
def test_kube_identifiers(command, namespaces, contexts):
    assert kube_identifiers(command) == (namespaces, contexts)


def test_trustmap_on_the_demo_and_a_fixture_home_lists_kubernetes(demo_home, tmp_path):
    doc = run("trustmap", "--json")
    assert "k8s_namespaces" in doc and "k8s_contexts" in doc
    dry = run("trustmap", "--apply", "--dry-run", "--settings", str(tmp_path / "s.json"), "--json", ok=(0, 3))
    assert not (tmp_path / "s.json").exists()
    assert all(not p["entry"].startswith("Trusted host: localhost") for p in dry["proposed"])
