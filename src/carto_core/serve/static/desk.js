// The memory desk: the sessions of a window with what each left behind (files, commits, a
// wrapup, open items), filters by window, project, agent and evidence; one day's digest; and a
// bounded review of a file or a commit inside the session's repository.

import { NOT_HERE, NO_PROJECT, api, choice, el, failure, fmtTime, iso, named, query, rec, reviewHref, sessionHref, short, show, visible, windowDays, counted } from "./dom.js";
import { parseTags, tagFacets } from "./tags.js";

const DAY_PRESETS = [[1, "last day"], [7, "last 7 days"], [30, "last 30 days"], [90, "last 90 days"], [365, "last year"]];
const EVIDENCE = [["any", "any evidence"], ["commits", "made commits"], ["edits", "edited files"], ["wrapup", "wrapped up"], ["no_wrapup", "not wrapped up"], ["unresolved", "open items"]];
const dayOf = (iso) => (iso || "").slice(0, 10);

function sessionCard(s) {
  return el("article", { class: "card desk-card", "data-selectable": true, "data-session": s.session_id },
    el("h3", {}, el("a", { href: sessionHref(s.session_id) }, ...iso`${s.project || NO_PROJECT} · ${short(s.session_id)}`)),
    el("div", { class: "muted" }, ...iso`${s.provider || "?"} · ${fmtTime(s.started)} → ${fmtTime(s.ended)} · ${counted(s.events, "event")}`),
    el("div", { class: "evidence" }, ...(s.evidence.length ? s.evidence : ["no evidence"]).map((kind) => el("span", { class: `badge ev-${kind}`, text: kind }))),
    (s.tags || []).length ? el("div", { class: "card-tags muted" }, ...s.tags.flatMap((t, i) => [i ? " · " : "", named(t)])) : null,
    s.key_insight ? el("p", { class: "insight" }, el("strong", { text: "Key insight: " }), rec(s.key_insight)) : null,
    s.unresolved.length ? el("ul", { class: "unresolved" }, ...s.unresolved.map((u) => el("li", {}, "open: ", rec(u)))) : null,
    s.last_commits.length ? el("ul", { class: "commits" }, ...s.last_commits.map((c) => el("li", {},
      c.sha ? el("a", { href: reviewHref(s.session_id, { commit: c.sha }), class: "sha", text: visible(c.sha.slice(0, 8)) }) : null, " ", rec(c.subject)))) : null,
    s.files.length ? el("ul", { class: "files" }, ...s.files.map((f) => el("li", {},
      el("a", { href: reviewHref(s.session_id, { path: f.path }), text: visible(f.path) }), el("span", { class: "muted", text: ` ×${f.touches}` })))) : null,
    s.files_total > s.files.length ? el("div", { class: "muted", text: `+${s.files_total - s.files.length} more files` }) : null,
    el("div", { class: "card-links" },
      // A session recorded elsewhere, or whose transcript was deleted, has nothing to analyse.
      s.transcript_available === false
        ? el("span", { class: "muted no-transcript", title: NOT_HERE, text: "transcript not on this machine" })
        : el("a", { href: `#/analysis/${encodeURIComponent(s.session_id)}`, text: "transcript analysis" }), " · ",
      el("a", { href: `#/day/${dayOf(s.ended)}`, text: `day ${dayOf(s.ended)}` })));
}

export async function viewDesk(params) {
  const state = { days: String(windowDays(params.get("days"), 7)), project: params.get("project") || "", provider: params.get("provider") || "", evidence: params.get("evidence") || "any", tag: params.get("tag") || "", topics: params.get("topics") || "" };
  const go = (patch) => { location.hash = `#/desk?${query({ ...state, ...patch })}`; };
  show(el("h1", { text: "Memory desk" }), el("p", { class: "muted", text: "Loading…" }));
  let data;
  try { data = await api(`/api/desk?${query(state)}`); }
  catch (error) { show(el("h1", { text: "Memory desk" }), failure(error)); return; }
  const providers = [["", "every agent"], ...Object.keys(data.providers).map((p) => [p, p])];
  const project = el("input", { type: "search", id: "desk-project", placeholder: "project (a|b)", value: state.project, "aria-label": "Project" });
  const filters = el("form", { class: "search", id: "desk-filters", onsubmit: (event) => { event.preventDefault(); go({ project: project.value.trim() }); } },
    choice("desk-days", "Window", (d) => `last ${d} days`, DAY_PRESETS, state.days, (v) => go({ days: v })),
    project,
    choice("desk-provider", "Agent", (p) => p, providers, state.provider, (v) => go({ provider: v })),
    choice("desk-evidence", "Evidence", (e) => e, EVIDENCE, state.evidence, (v) => go({ evidence: v })),
    el("button", { type: "submit", text: "Apply" }));
  const shared = data.files.filter((f) => f.sessions.length > 1);
  show(
    el("h1", { text: "Memory desk" }), filters,
    el("p", { class: "stats", id: "desk-stats", },
      `${counted(data.total, "session")} · `,
      // `/api/desk` counts the sessions of no project under "?"
      ...(Object.keys(data.projects).length ? Object.entries(data.projects).flatMap(([p, n], i) => [i ? ", " : "", p === "?" ? NO_PROJECT : named(p), ` ${n}`]) : [NO_PROJECT]),
      ` · ${counted(data.files_total, "file")} touched`),
    tagFacets("desk-tags", data.tag_facets, parseTags(state.tag), (tags) => go({ tag: tags.join(",") }), () => go({ topics: "true" })),
    el("h2", { text: `Files more than one session touched (${shared.length})` }),
    shared.length ? el("table", { id: "desk-shared" },
      el("thead", {}, el("tr", {}, el("th", { text: "File" }), el("th", { text: "Sessions" }), el("th", { text: "Touches" }))),
      el("tbody", {}, ...shared.map((f) => el("tr", {}, el("td", { class: "summary", text: visible(f.path) }),
        el("td", {}, ...f.sessions.map((sid) => el("a", { href: reviewHref(sid, { path: f.path }), class: "sha", text: short(sid) + " " }))), el("td", { text: f.touches })))))
      : el("p", { class: "muted", text: "No file was touched by two sessions in this window." }),
    el("h2", { text: "Sessions" }),
    data.sessions.length ? el("div", { class: "cards", id: "desk-sessions" }, ...data.sessions.map(sessionCard))
      : el("p", { class: "muted", text: "No session in this window matches." }));
}

// The days the API takes (its pattern, and a date the calendar has: 2026-13-45 has the shape but
// no such day); anything else is said in words before it is asked.
const DAY = /^(today|yesterday|\d{4}-\d{2}-\d{2})$/;
const isDay = (day) => {
  if (!DAY.test(day)) return false;
  if (day === "today" || day === "yesterday") return true;
  const [y, m, d] = day.split("-").map(Number);
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);  // not Date.UTC, which reads years 0..99 as 1900..1999
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

export async function viewDay(day) {
  const title = `Day ${day}`;
  if (!isDay(day)) {
    show(el("h1", { text: "No such day" }), el("p", { id: "day-invalid" }, "“", named(day), `” is not a day: a day address is #/day/YYYY-MM-DD (#/day/${new Date().toISOString().slice(0, 10)}), #/day/today or #/day/yesterday.`));
    return;
  }
  show(el("h1", { text: title }), el("p", { class: "muted", text: "Loading…" }));
  let d;
  try { d = await api(`/api/desk/day?${query({ day })}`); }
  catch (error) { show(el("h1", { text: title }), failure(error)); return; }
  const t = d.totals;
  const max = Math.max(1, ...d.hours);
  show(
    el("h1", { id: "day-title", text: `Day ${d.day} (${d.tz_abbrev})${d.complete ? "" : Date.parse(d.start) > Date.parse(d.generated_at) ? " · still to come" : " · not over yet"}` }),
    el("p", { class: "stats", id: "day-stats", text: `${counted(t.events, "event")} · ${counted(t.sessions, "session")} · ${counted(t.projects, "project")} · ${counted(t.commits_logged, "commit")} (${t.commits_landed} landed, ${t.commits_unverified} unverified, ${t.commits_missing} missing) · ${counted(t.active_minutes, "active minute")}` }),
    el("figure", { class: "hours-figure" },
      el("div", { class: "hours", "aria-label": "Events by hour" }, ...d.hours.map((n, h) => {
        const bar = el("span", { class: "hour", title: `${h}:00 · ${counted(n, "event")}` });
        bar.style.height = `${Math.round((n / max) * 40) + 1}px`;
        return bar;
      })),
      el("div", { class: "hours-axis" }, ...d.hours.map((_, h) => el("span", { text: h % 3 === 0 ? `${h}h` : "" }))),
      el("figcaption", { class: "muted", text: `events by hour (${d.tz_abbrev})` })),
    ...d.projects.map((p) => el("section", { class: "card day-project" },
      // the digest names its pseudo-project "outside any repo" (upstream's JSON); the page says
      // what every view says of work no project was recorded for
      el("h2", {}, ...iso`${p.kind === "pseudo" ? NO_PROJECT : p.name} · ${counted(p.events, "event")} · ${p.active_minutes} min`),
      el("div", {}, ...p.sessions.map((sid) => el("a", { href: sessionHref(sid), class: "sha", text: `${short(sid)} ` }))),
      p.commits.length ? el("ul", {}, ...p.commits.map((c) => el("li", {},
        el("span", { class: `badge st-${c.status}`, text: c.status }), " ",
        c.session_id && c.sha ? el("a", { href: reviewHref(c.session_id, { commit: c.sha }), class: "sha", text: visible(c.sha.slice(0, 8)) }) : null, " ", rec(c.subject)))) : null,
      p.files.length ? el("p", { class: "muted" }, "files: ", ...p.files.flatMap((f, i) => [i ? ", " : "", named(f.path)])) : null)));
}

// A diff or a file is recorded text: a direction control in it (Trojan Source) is shown, not obeyed.
function diffLines(text) {
  return el("pre", { class: "diff", id: "review-text" }, ...text.split("\n").map((line) => {
    const kind = line.startsWith("+++") || line.startsWith("---") ? "head" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : line.startsWith("diff ") ? "head" : "";
    return el("span", { class: kind ? `line ${kind}` : "line", text: visible(line) || " " });
  }));
}

export async function viewReview(sid, params) {
  const target = { path: params.get("path") || "", commit: params.get("commit") || "" };
  const title = `Review · session ${short(sid)}`;
  show(el("h1", { text: title }), el("p", { class: "muted", text: "Loading…" }));
  let r;
  try { r = await api(`/api/sessions/${encodeURIComponent(sid)}/review?${query(target)}`); }
  catch (error) { show(el("h1", { text: title }), el("p", {}, el("a", { href: sessionHref(sid), text: "← the session" })), failure(error)); return; }
  const nodes = [el("h1", { id: "review-title" }, ...(r.commit ? [named(r.commit.sha.slice(0, 10)), " · ", rec(r.commit.subject)] : [named(r.path)])),
    el("p", {}, el("a", { href: sessionHref(sid), text: "← the session" }), el("span", { class: "muted" }, " · repository ", named(r.repository)))];
  if (r.commit) {
    nodes.push(el("p", { class: "muted" }, rec(r.commit.author), ` · ${r.commit.date}`, ...(r.path ? [" · ", named(r.path), " only"] : [])));
    if (r.files) nodes.push(el("ul", { id: "review-files" }, ...r.files.map((f) => el("li", {}, el("span", { class: "badge", text: f.status }), " ",
      el("a", { href: reviewHref(sid, { commit: r.commit.sha, path: f.path }), text: visible(f.path) })))));
  }
  if (r.truncated) nodes.push(el("p", { class: "error", text: `Cut at ${r.limit_bytes.toLocaleString("en")} bytes (${r.bytes.toLocaleString("en")} in all).` }));
  if (r.binary) nodes.push(el("p", { class: "muted", text: "A binary file: not shown." }));
  else nodes.push(r.kind === "diff" ? diffLines(r.text || "") : el("pre", { class: "diff", id: "review-text", text: visible(r.text) }));
  show(...nodes);
}
