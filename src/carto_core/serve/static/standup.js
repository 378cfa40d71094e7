// Standup: contention first, then the roster of sessions, then silent Codex sessions.

import { ago, api, byline, choice, el, failure, named, sessionHref, short, show, teamNote, teamOn, visible, counted } from "./dom.js";

export async function viewStandup(params) {
  const since = params.get("since") || "6h";
  const select = choice("standup-since", "Window", (w) => `last ${w}`, ["1h", "6h", "24h", "3d", "7d"].map((w) => [w, `last ${w}`]), since,
    (value) => { location.hash = `#/standup?since=${encodeURIComponent(value)}`; });
  const body = el("section", { id: "standup" }, el("p", { class: "muted", text: "Loading…" }));
  show(el("h1", { text: "Standup" }), el("p", {}, "Who is working on what, and where they collide: ", select), body);
  try {
    const data = await api(`/api/standup?since=${encodeURIComponent(since)}${teamOn() ? "&team=true" : ""}`);
    body.replaceChildren(...[teamNote(data.team), ...renderStandup(data, since)].filter(Boolean));
  } catch (error) {
    body.replaceChildren(failure(error));
  }
}

function renderStandup(data, since) {
  const out = [];
  const contention = data.contention || {};
  const projects = contention.projects || [];
  const files = contention.files || [];
  const box = el("section", { id: "contention", "aria-label": "Contention" }, el("h2", { text: "Contention" }));
  if (!projects.length && !files.length) {
    box.append(el("div", { class: "contention none", text: "None. No shared project or file across these sessions." }));
  }
  for (const p of projects) {
    const ids = (p.sessions || []).map((x) => (typeof x === "string" ? x : x.id || x.session_id || ""));
    box.append(el("div", { class: "contention contention-project" }, el("strong", { text: visible(p.project) }),
      ` — ${counted(ids.length, "session")}: `, ...ids.flatMap((id, i) => [i ? ", " : "", el("a", { href: sessionHref(id), text: short(id) })])));
  }
  if (files.length) {
    box.append(el("h3", { text: `Same file, different sessions (${files.length})` }));
    for (const f of files) {
      const ids = (f.sessions || []).map((x) => (typeof x === "string" ? x : x.id || x.session_id || ""));
      box.append(el("div", { class: "contention contention-file" }, el("code", { text: visible(f.path) }),
        f.worktree_split ? el("span", { class: "badge", text: "separate worktrees" }) : null,
        el("div", { class: "muted" }, ...ids.flatMap((id, i) => [i ? " · " : "", el("a", { href: sessionHref(id), text: short(id) })]))));
    }
  }
  out.push(box);
  const sessions = data.sessions || [];
  out.push(el("h2", { text: `Sessions (${sessions.length})` }));
  if (!sessions.length) out.push(el("p", { class: "muted", id: "roster-empty", text: `No session in the last ${since}: a wider window shows older ones.` }));
  out.push(el("div", { class: "cards", id: "roster" }, ...sessions.map((s) => {
    const id = s.id || s.session_id || "";
    return el("article", { class: "card", "data-selectable": true },
      el("h3", {}, el("a", { href: sessionHref(id), text: short(id) }), " ", named(s.provider || ""),
        s.machine ? el("span", { class: "byline", text: ` · ${byline(s)}` }) : null),
      el("p", { class: "muted" }, ...(s.projects || []).flatMap((p, i) => [i ? " + " : "", named(p)]), ` · ${s.events === undefined || s.events === null ? "? events" : counted(s.events, "event")}${s.evidence === "turns" ? ` · from ${counted(s.turns, "transcript turn")} (no hook rows)` : ""} · last active ${ago(s.last_active)}`),
      el("ul", {}, ...(s.commits || []).slice(-3).map((c) => el("li", {}, el("code", { text: (c.sha || "").slice(0, 8) }), " ", c.subject || ""))));
  })));
  const silent = (data.silent && data.silent.codex_sessions_without_events) || [];
  if (silent.length) {
    // A session the roster lists was read from its transcript's turns: it has events, only no
    // hook row (`carto standup` says the same).
    const listed = new Set(sessions.map((s) => s.id || s.session_id || ""));
    out.push(el("h2", { text: "Silent" }), el("ul", {}, ...silent.map((x) => el("li", { text: `codex ${short(x.id)} · transcript written ${ago(x.transcript_written)} · ${listed.has(x.id) ? "no hook rows (its turns were read from the transcript)" : "0 events logged"}` }))));
  }
  return out;
}
