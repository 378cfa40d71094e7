// carto explorer: one module, no build step.
//
// Safety rule for this file: corpus text reaches the page through textContent (the `el`
// helper) and SVG <text> nodes only, never innerHTML; links taken from the corpus pass
// `safeHref` (http, https, mailto, #). The server's Content-Security-Policy forbids inline
// script as a second line of defence.

const main = document.getElementById("main");
const SVG = "http://www.w3.org/2000/svg";

// ------------------------------------------------------------------ small helpers

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "href") { const safe = safeHref(value); if (safe) node.setAttribute("href", safe); }
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "href") { const safe = safeHref(value); if (safe) node.setAttribute("href", safe); }
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

// Links from the corpus: only these schemes become clickable.
export function safeHref(value) {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text.startsWith("#")) return text;
  if (/^(https?:\/\/|mailto:)/i.test(text)) {
    try { const url = new URL(text); return ["http:", "https:", "mailto:"].includes(url.protocol) ? url.href : null; }
    catch { return null; }
  }
  return null;
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const message = data && data.error ? data.error : `HTTP ${response.status}`;
    const error = new Error(message); error.status = response.status; throw error;
  }
  return data;
}

const fmtTime = (iso) => (iso ? iso.replace("T", " ").replace("Z", "") : "undated");
const short = (id) => (id || "").slice(0, 8);
const sessionHref = (sid) => `#/session/${encodeURIComponent(sid)}`;

function ago(iso) {
  if (!iso) return "";
  const minutes = Math.round((Date.now() - Date.parse(iso)) / 60000);
  if (minutes < 60) return `${minutes}m ago`;
  if (minutes < 60 * 48) return `${Math.round(minutes / 60)}h ago`;
  return `${Math.round(minutes / 1440)}d ago`;
}

function show(...nodes) {
  main.replaceChildren(...nodes);
}

function failure(error) {
  return el("p", { class: "error", role: "alert", text: `Could not load: ${error.message}` });
}

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = raw.split("?");
  const parts = path.split("/").map(decodeURIComponent);
  return { view: parts[0] || "search", arg: parts[1] || "", params: new URLSearchParams(query) };
}

// ------------------------------------------------------------------ search

let lastResults = [];

async function viewSearch(params) {
  const q = params.get("q") || "";
  const project = params.get("project") || "";
  const since = params.get("since") || "";
  const input = el("input", { type: "search", id: "q", name: "q", value: q, "aria-label": "Search the record",
    placeholder: "Search what agents did: commits, edits, prompts, research…", autocomplete: "off" });
  const sinceSelect = el("select", { id: "since", "aria-label": "Time window" },
    ...[["", "any time"], ["24h", "last 24 hours"], ["7d", "last 7 days"], ["30d", "last 30 days"], ["1y", "last year"]]
      .map(([value, label]) => el("option", { value, text: label, selected: value === since })));
  const projectSelect = el("select", { id: "project", "aria-label": "Project" }, el("option", { value: "", text: "all projects" }));
  const form = el("form", { class: "search", role: "search", onsubmit: (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (input.value.trim()) next.set("q", input.value.trim());
    if (projectSelect.value) next.set("project", projectSelect.value);
    if (sinceSelect.value) next.set("since", sinceSelect.value);
    location.hash = `#/search?${next}`;
  } }, input, projectSelect, sinceSelect, el("button", { type: "submit", text: "Search" }));
  const results = el("section", { id: "results", "aria-label": "Results" });
  show(el("h1", { text: "Search" }), form, results);
  api("/api/projects").then((data) => {
    for (const p of data.projects) projectSelect.append(el("option", { value: p.name, text: `${p.name} (${p.events})`, selected: p.name === project }));
  }).catch(() => {});
  if (!q) {
    results.append(el("p", { class: "muted", text: "Type a query and press Enter. Results show the ladders (keyword logs, semantic) each one came from." }));
    input.focus();
    return;
  }
  results.append(el("p", { class: "muted", text: "Searching…" }));
  try {
    const body = { contract_version: 1, query: q, limit: 30 };
    if (project) body.project = project;
    if (since) body.since = since;
    const data = await api("/api/recall", body);
    renderResults(results, data, { q, project, since });
  } catch (error) {
    results.replaceChildren(failure(error));
  }
}

function renderResults(container, data, current) {
  lastResults = data.results;
  const stages = data.stages_ms || {};
  const stats = el("p", { class: "stats", id: "search-stats" },
    `${data.results.length} of ${data.meta.eligible_count} results · ${Math.round(stages.total || 0)} ms · ladders: `,
    ...(data.ladders || []).map((l) => el("span", { class: `badge${l.name === "semantic" ? " semantic" : ""}`,
      title: `${l.ranker || l.name}: ${l.status}${l.reason ? " (" + l.reason + ")" : ""}, ${l.contributed} in page`,
      text: `${l.name} ${l.contributed}` })),
    data.semantic_status ? ` · semantic: ${data.semantic_status}${data.semantic && data.semantic.reason ? " (" + data.semantic.reason + ")" : ""}` : "");
  const facets = el("aside", { class: "facets", "aria-label": "Facets" });
  const facetData = data.facets || {};
  for (const [name, key, param] of [["Projects", "projects", "project"], ["Types", "types", null], ["Sources", "sources", null], ["Providers", "providers", null]]) {
    const buckets = normaliseFacet(facetData[key]);
    if (!buckets.length) continue;
    facets.append(el("h3", { text: name }), el("ul", {}, ...buckets.slice(0, 8).map(([label, count]) =>
      el("li", {}, param ? el("button", { type: "button", "aria-pressed": String(current[param] === label), onclick: () => {
        const next = new URLSearchParams({ q: current.q });
        if (current[param] !== label) next.set(param, label);
        if (current.since) next.set("since", current.since);
        location.hash = `#/search?${next}`;
      } }, label, el("span", { class: "facet-count", text: count })) : el("span", {}, label, el("span", { class: "facet-count", text: ` ${count}` }))))));
  }
  const list = el("ol", { class: "results", id: "result-list" });
  for (const hit of data.results) {
    const link = safeHref(hit.url || (hit.row && hit.row.url));
    list.append(el("li", { class: "result", "data-event-id": hit.event_id },
      el("div", { class: "meta" },
        el("span", { text: fmtTime(hit.timestamp) }),
        el("span", {}, ...(hit.sources || []).map((s) => el("span", { class: `badge${s === "semantic" ? " semantic" : ""}`, title: "ladder", text: s }))),
        el("span", { text: hit.type }),
        el("span", { text: hit.project || "no project" }),
        el("span", { text: hit.provider })),
      el("div", { class: "summary", text: hit.summary }),
      el("div", { class: "meta" },
        hit.session_id ? el("a", { href: sessionHref(hit.session_id), class: "open-session", text: `session ${short(hit.session_id)}` }) : null,
        link ? el("a", { href: link, rel: "noopener noreferrer", target: "_blank", text: link }) : null,
        el("span", { class: "muted", text: hit.event_id }))));
  }
  if (!data.results.length) list.append(el("li", { class: "muted", text: "No results. Try fewer words, or widen the time window." }));
  container.replaceChildren(stats, el("div", { class: "layout" }, facets, list));
}

function normaliseFacet(value) {
  if (!value) return [];
  if (Array.isArray(value)) return value.map((b) => Array.isArray(b) ? b : [b.name ?? b.value ?? "", b.count ?? 0]);
  if (typeof value === "object") return Object.entries(value).sort((a, b) => b[1] - a[1]);
  return [];
}

// ------------------------------------------------------------------ timeline

async function viewTimeline(params) {
  const days = Number(params.get("days") || 7);
  const select = el("select", { id: "days", "aria-label": "Window", onchange: () => { location.hash = `#/timeline?days=${select.value}`; } },
    ...[1, 7, 30, 90, 365].map((d) => el("option", { value: d, text: `last ${d} day${d > 1 ? "s" : ""}`, selected: d === days })));
  const body = el("section", { id: "timeline" }, el("p", { class: "muted", text: "Loading sessions…" }));
  show(el("h1", { text: "Timeline of sessions" }), el("p", {}, "Sessions by project and agent, ", select), body);
  try {
    const data = await api(`/api/sessions?days=${days}&limit=500`);
    body.replaceChildren(...renderTimeline(data.sessions));
  } catch (error) {
    body.replaceChildren(failure(error));
  }
}

function renderTimeline(sessions) {
  if (!sessions.length) return [el("p", { class: "muted", text: "No sessions in this window." })];
  const lanes = new Map();
  for (const s of sessions) {
    const key = `${s.project || "no project"} · ${s.provider || "unknown agent"}`;
    if (!lanes.has(key)) lanes.set(key, []);
    lanes.get(key).push(s);
  }
  const keys = [...lanes.keys()].sort();
  const start = Math.min(...sessions.map((s) => Date.parse(s.started || s.ended)));
  const end = Math.max(...sessions.map((s) => Date.parse(s.ended)));
  const span = Math.max(end - start, 60000);
  const labelW = 200, plotW = 760, laneH = 28, top = 24;
  const x = (iso) => labelW + ((Date.parse(iso) - start) / span) * plotW;
  const height = top + keys.length * laneH + 10;
  const chart = svg("svg", { viewBox: `0 0 ${labelW + plotW + 20} ${height}`, width: "100%", role: "img",
    "aria-label": `Timeline: ${sessions.length} sessions in ${keys.length} lanes`, class: "timeline-svg" });
  chart.append(svg("text", { x: labelW, y: 14, text: fmtTime(new Date(start).toISOString().slice(0, 19) + "Z") }));
  chart.append(svg("text", { x: labelW + plotW, y: 14, "text-anchor": "end", text: fmtTime(new Date(end).toISOString().slice(0, 19) + "Z") }));
  keys.forEach((key, row) => {
    const y = top + row * laneH;
    chart.append(svg("rect", { class: "lane", x: labelW, y, width: plotW, height: laneH - 6, rx: 3 }));
    chart.append(svg("text", { x: 4, y: y + 15, text: key.length > 30 ? key.slice(0, 29) + "…" : key }));
    for (const s of lanes.get(key)) {
      const x0 = x(s.started || s.ended), x1 = x(s.ended);
      const bar = svg("rect", { class: `bar${s.provider === "codex" ? " alt" : ""}`, x: x0, y: y + 3, width: Math.max(x1 - x0, 5), height: laneH - 12, rx: 2 });
      bar.append(svg("title", { text: `${short(s.session_id)} · ${s.events} events · ${s.commits} commits\n${fmtTime(s.started)} → ${fmtTime(s.ended)}` }));
      chart.append(svg("a", { href: sessionHref(s.session_id), class: "session-bar", "aria-label": `session ${short(s.session_id)} in ${key}` }, bar));
    }
  });
  const table = el("table", { id: "session-table" },
    el("thead", {}, el("tr", {}, ...["Session", "Project", "Agent", "Started", "Ended", "Events", "Commits", "Edits"].map((h) => el("th", { text: h })))),
    el("tbody", {}, ...sessions.map((s) => el("tr", {},
      el("td", {}, el("a", { href: sessionHref(s.session_id), text: short(s.session_id) })),
      el("td", { text: s.project }), el("td", { text: s.provider }),
      el("td", { text: fmtTime(s.started) }), el("td", { text: fmtTime(s.ended) }),
      el("td", { text: s.events }), el("td", { text: s.commits }), el("td", { text: s.edits })))));
  return [el("div", { class: "chart" }, chart), el("h2", { text: "Sessions" }), table];
}

// ------------------------------------------------------------------ session

async function viewSession(sid) {
  show(el("h1", { text: `Session ${short(sid)}` }), el("p", { class: "muted", text: "Loading…" }));
  let data;
  try { data = await api(`/api/sessions/${encodeURIComponent(sid)}`); }
  catch (error) { show(el("h1", { text: `Session ${short(sid)}` }), failure(error)); return; }
  const s = data.session;
  const transcriptBox = el("section", { id: "transcript", "aria-label": "Transcript" });
  const nodes = [
    el("h1", { id: "session-title", text: `Session ${short(s.session_id)} · ${s.project || "no project"}` }),
    el("dl", { class: "kv" },
      el("dt", { text: "session" }), el("dd", { text: s.session_id }),
      el("dt", { text: "agent" }), el("dd", { text: s.provider }),
      el("dt", { text: "projects" }), el("dd", { text: s.projects.join(", ") }),
      el("dt", { text: "span" }), el("dd", { text: `${fmtTime(s.started)} → ${fmtTime(s.ended)}` }),
      el("dt", { text: "events" }), el("dd", { text: `${s.events} (${s.commits} commits, ${s.edits} edits, ${s.prompts} prompts, ${s.turns} turns)` }),
      el("dt", { text: "transcript" }), el("dd", { text: s.transcript_path || "not recorded" })),
  ];
  for (const w of data.wrapup) {
    nodes.push(el("h2", { text: "Wrapup" }), el("p", { text: w.description }));
    if (w.key_insight) nodes.push(el("p", {}, el("strong", { text: "Key insight: " }), w.key_insight));
    if (w.decisions.length) nodes.push(el("h3", { text: "Decisions" }), el("ul", {}, ...w.decisions.map((d) => el("li", { text: d }))));
    if (w.unresolved.length) nodes.push(el("h3", { text: "Unresolved" }), el("ul", {}, ...w.unresolved.map((d) => el("li", { text: d }))));
  }
  nodes.push(el("h2", { text: `Commits (${data.commits.length})` }),
    data.commits.length ? el("ul", { id: "session-commits" }, ...data.commits.map((c) => el("li", {}, el("span", { class: "muted", text: `${fmtTime(c.timestamp)} ` }), c.summary)))
      : el("p", { class: "muted", text: "No commits." }));
  nodes.push(el("h2", { text: `Files (${data.files.length})` }),
    data.files.length ? el("table", { id: "session-files" }, el("thead", {}, el("tr", {}, el("th", { text: "File" }), el("th", { text: "Touches" }), el("th", { text: "Last" }))),
      el("tbody", {}, ...data.files.map((f) => el("tr", {}, el("td", { class: "summary", text: f.path }), el("td", { text: f.touches }), el("td", { text: fmtTime(f.last_touched) })))))
      : el("p", { class: "muted", text: "No file edits recorded." }));
  nodes.push(el("h2", { text: `Transcript turns (${data.turns.length})` }),
    data.turns.length ? el("ol", { id: "session-turns" }, ...data.turns.map((t) => el("li", {}, el("span", { class: "muted", text: `${fmtTime(t.timestamp)} ` }), t.summary)))
      : el("p", { class: "muted", text: "No turns indexed for this session." }));
  nodes.push(el("button", { type: "button", id: "load-transcript", onclick: () => loadTranscript(s, transcriptBox), text: "Read the transcript" }), transcriptBox);
  nodes.push(el("h2", { text: `Events (${data.events.length})` }),
    el("table", { id: "session-events" },
      el("thead", {}, el("tr", {}, ...["Time", "Type", "Source", "Summary"].map((h) => el("th", { text: h })))),
      el("tbody", {}, ...data.events.map((e) => {
        const link = safeHref(e.url);
        return el("tr", {}, el("td", { text: fmtTime(e.timestamp) }), el("td", { text: e.type }), el("td", { text: e.sources.join("+") }),
          el("td", { class: "summary" }, e.summary, link ? el("span", {}, " ", el("a", { href: link, rel: "noopener noreferrer", target: "_blank", text: "open" })) : null));
      }))));
  show(...nodes);
  document.getElementById("session-title").focus?.();
}

async function loadTranscript(s, box) {
  box.replaceChildren(el("p", { class: "muted", text: "Reading the transcript…" }));
  const query = new URLSearchParams({ session_id: s.session_id, limit: "200" });
  if (s.transcript_path) query.set("path", s.transcript_path);
  try {
    const data = await api(`/api/transcript?${query}`);
    box.replaceChildren(el("p", { class: "muted", text: `${data.total} messages · ${data.path} (${data.path_status})` }),
      el("ol", { class: "messages" }, ...data.messages.map((m) => el("li", { class: m.role },
        el("div", { class: "muted", text: `${m.role} · ${fmtTime(m.timestamp)}${m.truncated ? " · cut" : ""}` }), el("pre", { text: m.text })))));
  } catch (error) {
    box.replaceChildren(el("p", { class: "error", text: `Transcript unavailable: ${error.message}` }));
  }
}

// ------------------------------------------------------------------ standup

async function viewStandup(params) {
  const since = params.get("since") || "6h";
  const select = el("select", { id: "standup-since", "aria-label": "Window", onchange: () => { location.hash = `#/standup?since=${select.value}`; } },
    ...["1h", "6h", "24h", "3d", "7d"].map((w) => el("option", { value: w, text: `last ${w}`, selected: w === since })));
  const body = el("section", { id: "standup" }, el("p", { class: "muted", text: "Loading…" }));
  show(el("h1", { text: "Standup" }), el("p", {}, "Who is working on what, and where they collide: ", select), body);
  try {
    const data = await api(`/api/standup?since=${encodeURIComponent(since)}`);
    body.replaceChildren(...renderStandup(data));
  } catch (error) {
    body.replaceChildren(failure(error));
  }
}

function renderStandup(data) {
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
    box.append(el("div", { class: "contention contention-project" }, el("strong", { text: p.project }),
      ` — ${ids.length} sessions: `, ...ids.flatMap((id, i) => [i ? ", " : "", el("a", { href: sessionHref(id), text: short(id) })])));
  }
  if (files.length) {
    box.append(el("h3", { text: `Same file, different sessions (${files.length})` }));
    for (const f of files) {
      const ids = (f.sessions || []).map((x) => (typeof x === "string" ? x : x.id || x.session_id || ""));
      box.append(el("div", { class: "contention contention-file" }, el("code", { text: f.path }),
        f.worktree_split ? el("span", { class: "badge", text: "separate worktrees" }) : null,
        el("div", { class: "muted" }, ...ids.flatMap((id, i) => [i ? " · " : "", el("a", { href: sessionHref(id), text: short(id) })]))));
    }
  }
  out.push(box);
  const sessions = data.sessions || [];
  out.push(el("h2", { text: `Sessions (${sessions.length})` }));
  out.push(el("div", { class: "cards", id: "roster" }, ...sessions.map((s) => {
    const id = s.id || s.session_id || "";
    return el("article", { class: "card" },
      el("h3", {}, el("a", { href: sessionHref(id), text: short(id) }), ` ${s.provider || ""}`),
      el("p", { class: "muted", text: `${(s.projects || []).join(" + ")} · ${s.events ?? "?"} events · last ${ago(s.last_active)}` }),
      el("ul", {}, ...(s.commits || []).slice(-3).map((c) => el("li", {}, el("code", { text: (c.sha || "").slice(0, 8) }), " ", c.subject || ""))));
  })));
  const silent = (data.silent && data.silent.codex_sessions_without_events) || [];
  if (silent.length) {
    out.push(el("h2", { text: "Silent" }), el("ul", {}, ...silent.map((x) => el("li", { text: `codex ${short(x.id)} · transcript written ${ago(x.transcript_written)} · 0 events logged` }))));
  }
  return out;
}

// ------------------------------------------------------------------ activity (census + tempo)

async function viewActivity(params) {
  const since = params.get("since") || "";
  const select = el("select", { id: "activity-since", "aria-label": "Window", onchange: () => { location.hash = `#/activity${select.value ? "?since=" + select.value : ""}`; } },
    ...[["", "all time"], ["7d", "last 7 days"], ["30d", "last 30 days"], ["90d", "last 90 days"]].map(([v, t]) => el("option", { value: v, text: t, selected: v === since })));
  const census = el("section", { id: "census", "aria-label": "Census" }, el("p", { class: "muted", text: "Loading census…" }));
  const tempo = el("section", { id: "tempo", "aria-label": "Tempo" }, el("p", { class: "muted", text: "Loading tempo…" }));
  show(el("h1", { text: "Activity" }), el("p", {}, "Census and tempo of the record: ", select), census, tempo);
  const scope = since ? { since } : {};
  const callId = `explorer-${Date.now()}`;
  api("/api/facts", { contract_version: 1, call_id: callId, verb: "census", top: 12, sample: 1, ...scope })
    .then((data) => census.replaceChildren(...renderCensus(data.facts)))
    .catch((error) => census.replaceChildren(failure(error)));
  api("/api/facts", { contract_version: 1, call_id: callId, verb: "tempo", top: 8, ...scope })
    .then((data) => tempo.replaceChildren(...renderTempo(data.facts)))
    .catch((error) => tempo.replaceChildren(failure(error)));
}

function barChart(title, buckets, id) {
  const rows = buckets.slice(0, 12);
  const max = Math.max(1, ...rows.map((b) => b.count));
  const labelW = 120, plotW = 170, rowH = 20;
  const chart = svg("svg", { viewBox: `0 0 ${labelW + plotW + 60} ${rows.length * rowH + 8}`, width: "100%", role: "img", "aria-label": `${title}: ${rows.map((b) => `${b.name} ${b.count}`).join(", ")}`, id });
  rows.forEach((b, i) => {
    const y = 4 + i * rowH;
    chart.append(svg("text", { x: labelW - 6, y: y + 13, "text-anchor": "end", text: b.name.length > 22 ? b.name.slice(0, 21) + "…" : b.name }));
    chart.append(svg("rect", { class: `bar${i % 2 ? " alt" : ""}`, x: labelW, y: y + 2, width: Math.max(2, (b.count / max) * plotW), height: rowH - 6, rx: 2 },
      svg("title", { text: `${b.name}: ${b.count}` })));
    chart.append(svg("text", { x: labelW + (b.count / max) * plotW + 6, y: y + 13, text: b.count }));
  });
  return el("figure", { class: "chart" }, el("figcaption", { text: title }), chart);
}

function renderCensus(facts) {
  const out = [el("h2", { text: `Census · ${facts.events} events` }),
    el("p", { class: "muted", text: `${facts.span && facts.span.oldest ? fmtTime(facts.span.oldest) + " → " + fmtTime(facts.span.newest) : ""} · ${facts.sessions ? facts.sessions.resolved : "?"} sessions` })];
  const charts = el("div", { class: "charts" });
  for (const [title, key] of [["By project", "by_project"], ["By type", "by_type"], ["By agent", "by_provider"], ["By log", "by_source"]]) {
    if (Array.isArray(facts[key]) && facts[key].length) charts.append(barChart(title, facts[key], `census-${key}`));
  }
  out.push(charts);
  return out;
}

function renderTempo(facts) {
  const series = facts.projects || [];
  const out = [el("h2", { text: "Tempo · events per day" })];
  if (!series.length) { out.push(el("p", { class: "muted", text: "No dated, project-attributed events." })); return out; }
  const charts = el("div", { class: "charts" });
  for (const p of series) {
    const days = (p.days || []).slice(-30);
    const max = Math.max(1, ...days.map((d) => d.count));
    const w = 360, h = 90, barW = Math.max(2, Math.floor((w - 10) / Math.max(days.length, 1)) - 2);
    const chart = svg("svg", { viewBox: `0 0 ${w} ${h + 16}`, width: "100%", role: "img", class: "tempo-chart", "aria-label": `${p.project}: ${days.map((d) => `${d.day} ${d.count}`).join(", ")}` });
    days.forEach((d, i) => {
      const bh = Math.max(1, (d.count / max) * h);
      chart.append(svg("rect", { class: `bar${d.complete ? "" : " partial"}`, x: 5 + i * (barW + 2), y: h - bh, width: barW, height: bh },
        svg("title", { text: `${d.day}: ${d.count}${d.complete ? "" : " (today, not scored)"}` })));
    });
    chart.append(svg("line", { class: "axis", x1: 0, x2: w, y1: h + 0.5, y2: h + 0.5, stroke: "currentColor" }));
    if (days.length) {
      chart.append(svg("text", { x: 5, y: h + 13, text: days[0].day }));
      chart.append(svg("text", { x: w - 5, y: h + 13, "text-anchor": "end", text: days[days.length - 1].day }));
    }
    const z = p.z_status === "ok" ? `z ${p.z}` : (p.z_status || "").replace(/_/g, " ");
    charts.append(el("figure", { class: "chart" }, el("figcaption", { text: `${p.project} · ${p.total} events · ${z}` }), chart));
  }
  out.push(charts);
  return out;
}

// ------------------------------------------------------------------ routing, keys, live

const views = { search: viewSearch, timeline: viewTimeline, session: null, standup: viewStandup, activity: viewActivity };

async function route() {
  const { view, arg, params } = parseHash();
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.view === view) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  selected = -1;
  if (view === "session" && arg) await viewSession(arg);
  else await (views[view] || viewSearch)(params);
  document.body.dataset.ready = view;
}

let selected = -1;
let pendingG = false;

function moveSelection(step) {
  const items = [...document.querySelectorAll("#result-list .result, #session-table tbody tr")];
  if (!items.length) return;
  selected = Math.max(0, Math.min(items.length - 1, selected + step));
  items.forEach((item, i) => item.classList.toggle("selected", i === selected));
  const target = items[selected];
  target.scrollIntoView({ block: "nearest" });
  const link = target.querySelector("a");
  if (link) link.focus();
}

document.addEventListener("keydown", (event) => {
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName);
  if (event.key === "Escape" && typing) { document.activeElement.blur(); return; }
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "/") {
    event.preventDefault();
    const box = document.getElementById("q");
    if (box) box.focus(); else location.hash = "#/search";
  } else if (event.key === "j") moveSelection(1);
  else if (event.key === "k") moveSelection(-1);
  else if (event.key === "g") { pendingG = true; setTimeout(() => { pendingG = false; }, 1200); return; }
  else if (pendingG && "stua".includes(event.key)) {
    location.hash = { s: "#/search", t: "#/timeline", u: "#/standup", a: "#/activity" }[event.key];
  }
  pendingG = false;
});

function follow() {
  const live = document.getElementById("live");
  let fresh = 0;
  const source = new EventSource("/api/stream");
  const render = () => {
    live.replaceChildren(`● live${fresh ? ` · ${fresh} new` : ""}`);
    if (fresh) live.append(" ", el("button", { type: "button", text: "refresh view", onclick: () => { fresh = 0; render(); route(); } }));
  };
  source.onopen = render;
  source.onmessage = () => { fresh += 1; render(); };
  source.addEventListener("reload", () => { fresh += 1; render(); });
  source.addEventListener("update", () => { fresh += 1; render(); });
  source.onerror = () => { live.replaceChildren("○ offline (retrying)"); };
}

async function status() {
  try {
    const data = await api("/api/health");
    document.getElementById("corpus-status").textContent = `${data.events} events · ${data.corpus_root}`;
  } catch { /* the view shows its own error */ }
}

window.addEventListener("hashchange", route);
route();
status();
follow();
