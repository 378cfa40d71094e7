"""Hermes artifacts (the policy's markdown files) as versioned milestones rows: one row per
content version, `hermes-<kind>-<slug>-<sha256[:8]>`; an edited file is a new row, the old one
stays. The checkpoint of an artifact stream is its content hash (and the policy digest).
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone

from carto_core.api import Emit, ReadBatch, Stream, format_timestamp, order_row

from carto_hermes.content import LineFilter, clip, one_line
from carto_hermes.mapping import PROVIDER, SUMMARY_MAX
from carto_hermes.policy import Policy

DESCRIPTION_MAX = 20000


def read_artifact(policy: Policy, lines: LineFilter, stream: Stream, checkpoint: dict | None) -> ReadBatch:
    """The artifact file of `stream` as one row, unless its content and the policy are unchanged."""
    spec = policy.artifacts[stream.meta["spec"]]
    raw = stream.path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    batch = ReadBatch(checkpoint={"sha256": digest, "policy": policy.digest}, units=1)
    if checkpoint and checkpoint.get("sha256") == digest and checkpoint.get("policy") == policy.digest:
        return batch
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", errors="replace")
        batch.skipped["invalid_utf8"] += 1
    project = spec.project or policy.default_project
    if policy.excluded(project, str(stream.path)) is not None:
        batch.skipped["excluded_project"] += 1
        return batch
    if not text.strip():
        batch.skipped["empty_artifact"] += 1
        return batch
    clean = lines(text)
    title, lead = title_and_lead(clean, stream.path.stem)
    slug = re.sub(r"[^a-z0-9]+", "-", stream.path.stem.lower()).strip("-") or "artifact"
    moment = datetime.fromtimestamp(stream.path.stat().st_mtime, tz=timezone.utc)
    batch.rows.append(Emit("milestones", order_row("milestones", {
        "event_id": f"hermes-{spec.kind}-{slug}-{digest[:8]}",
        "timestamp": format_timestamp(moment),
        "milestone": f"hermes_{spec.kind}",
        "provider": PROVIDER,
        "description": clip(one_line(clean), DESCRIPTION_MAX),
        "transcript_path": str(stream.path),
        "project": project,
        "event": spec.kind.replace("_", " ").replace("-", " ").title().replace(" ", ""),
        "salience": spec.salience,
        "artifact_kind": spec.kind,
        "artifact_path": str(stream.path),
        "content_hash": digest,
        "summary": clip(one_line(f"{title}: {lead}" if lead else title), SUMMARY_MAX),
    })))
    return batch


def title_and_lead(text: str, fallback: str) -> tuple[str, str]:
    """The first `# ` heading (else `fallback`) and the first paragraph."""
    title = ""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not title and stripped.startswith("# "):
            title = stripped[2:].strip()
            continue
        if stripped.startswith("#") or not stripped:
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        current.append(stripped)
    if current:
        paragraphs.append(" ".join(current))
    return title or fallback, paragraphs[0] if paragraphs else ""

