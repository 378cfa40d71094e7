// Search: the recall contract's results with their ladders, facets that filter on click.

import { api, byline, copyButton, el, failure, fmtTime, longText, named, query, rec, safeHref, sessionHref, short, show, teamNote, teamOn, unfoldShort, visible, counted } from "./dom.js";
import { parseTags, tagFacets } from "./tags.js";
import { attachAutocomplete, coTerms } from "./terms.js";

export let lastResults = [];

export async function viewSearch(params) {
  const q = params.get("q") || "";
  const project = params.get("project") || "";
  const since = params.get("since") || "";
  const tag = params.get("tag") || "";
  const topics = params.get("topics") || "";
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
    if (tag) next.set("tag", tag);
    if (topics) next.set("topics", topics);
    location.hash = `#/search?${next}`;
  } }, input, attachAutocomplete(input), projectSelect, sinceSelect, el("button", { type: "submit", text: "Search" }));
  const results = el("section", { id: "results", "aria-label": "Results" });
  show(el("h1", { text: "Search" }), form, results);
  api("/api/projects").then((data) => {
    for (const p of data.projects) projectSelect.append(el("option", { value: p.name, text: `${visible(p.name)} (${p.events})`, selected: p.name === project }));
    // A project the address names that is no project of the home (a typo, a forgotten one, a
    // pattern): shown as chosen, so the select says what was searched.
    if (project && !data.projects.some((p) => p.name === project)) {
      projectSelect.append(el("option", { value: project, text: visible(project), selected: true }));
    }
  }).catch(() => {});
  if (!q) {
    // No focus on load: the `/` shortcut focuses the box (a focused box would take the slash
    // as text).
    results.append(el("p", { class: "muted", text: "Type a query and press Enter (/ jumps here). Results show the ladders (keyword logs, semantic) each one came from." }));
    return;
  }
  results.append(el("p", { class: "muted", text: "Searching…" }));
  try {
    const body = { contract_version: 1, query: q, limit: 30 };
    if (teamOn()) body.team = true;
    if (project) body.project = project;
    if (since) body.since = since;
    if (!teamOn()) {
      body.tag_facets = true;
      if (topics) body.tag_topics = true;
      if (tag) body.tags = parseTags(tag);
    }
    const data = await api("/api/recall", body);
    renderResults(results, data, { q, project, since, tag, topics });
    const go = (next) => { location.hash = `#/search?${query({ q: next, project, since, tag, topics })}`; };
    coTerms(q, go).then((box) => results.insertBefore(box, results.children[1] || null));
  } catch (error) {
    results.replaceChildren(failure(error));
  }
}

function renderResults(container, data, current) {
  lastResults = data.results;
  const stages = data.stages_ms || {};
  const stats = el("p", { class: "stats", id: "search-stats" },
    `${data.results.length} of ${counted(data.meta.eligible_count, "result")} · ${Math.round(stages.total || 0)} ms · ladders: `,
    ...(data.ladders || []).map((l) => el("span", { class: `badge${l.name === "semantic" ? " semantic" : ""}`,
      title: `${l.ranker || l.name}: ${l.status}${l.reason ? " (" + l.reason + ")" : ""}, ${l.contributed} in page`,
      text: `${l.name} ${l.contributed}` })),
    data.semantic_status ? ` · semantic: ${data.semantic_status}${data.semantic && data.semantic.reason ? " (" + data.semantic.reason + ")" : ""}` : "",
    // The remedy `carto search` prints with the status (fix: carto index).
    data.semantic && data.semantic.fix ? [" · fix: ", el("code", { class: "semantic-fix", text: data.semantic.fix })] : "",
    " · ", el("a", { id: "open-internals", href: `#/internals?${query({ q: current.q, project: current.project, since: current.since })}`, text: "why this order? (internals)" }));
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
        if (current.tag) next.set("tag", current.tag);
        if (current.topics) next.set("topics", current.topics);
        location.hash = `#/search?${next}`;
      } }, named(label), el("span", { class: "facet-count", text: count })) : el("span", {}, named(label), el("span", { class: "facet-count", text: ` ${count}` }))))));
  }
  if (data.tag_facets) {
    const to = (patch) => { location.hash = `#/search?${query({ q: current.q, project: current.project, since: current.since, tag: current.tag, topics: current.topics, ...patch })}`; };
    facets.append(tagFacets("search-tags", data.tag_facets, parseTags(current.tag), (tags) => to({ tag: tags.join(",") }), () => to({ topics: "true" })));
  }
  const list = el("ol", { class: "results", id: "result-list" });
  for (const hit of data.results) {
    const link = safeHref(hit.url || (hit.row && hit.row.url));
    list.append(el("li", { class: "result", "data-event-id": hit.event_id },
      el("div", { class: "meta" },
        el("span", { text: fmtTime(hit.timestamp) }),
        el("span", {}, ...(hit.sources || []).map((s) => el("span", { class: `badge${s === "semantic" ? " semantic" : ""}`, title: "ladder", text: s }))),
        el("span", { text: visible(hit.type) }),
        el("span", { text: visible(hit.project || "no project") }),
        el("span", { text: visible(hit.provider) }),
        hit.machine ? el("span", { class: "byline", text: byline(hit) }) : null),
      longText(hit.summary || ""),
      el("div", { class: "meta" },
        hit.session_id ? el("a", { href: sessionHref(hit.session_id), class: "open-session", text: `session ${short(hit.session_id)}` }) : null,
        link ? el("a", { href: link, rel: "noopener noreferrer", target: "_blank", text: link }) : null,
        el("span", { class: "muted event-id", text: visible(hit.event_id) }), copyButton(hit.event_id))));
  }
  if (!data.results.length) list.append(nothingFound(data, current));
  container.replaceChildren(...[teamNote(data.team), stats].filter(Boolean), el("div", { class: "layout" }, facets, list));
  unfoldShort(list);
}

// An empty page says why, as `carto search` does: the keyword ladders' reasons (no document
// holds a word, every match outside the window or project) and the relevance floor's (the
// candidates there were too weak to be an answer).
function nothingFound(data, current) {
  const reasons = (data.ladders || []).filter((l) => l.name !== "semantic" && l.status !== "ok" && l.reason).map((l) => l.reason);
  if (data.floor && data.floor.found === false && data.floor.reason) reasons.push(data.floor.reason);
  const scope = [current.project ? [" in ", named(current.project)] : [], current.since ? [" (window ", named(current.since), ")"] : []].flat();
  const widen = [current.project ? "every project" : "", current.since ? "a wider time window" : ""].filter(Boolean);
  return el("li", { class: "muted nothing-found", id: "nothing-found" },
    el("p", {}, "Nothing found for “", rec(current.q), "”", ...scope, reasons.length ? ": " + [...new Set(reasons)].join("; ") : "."),
    el("p", { text: `Try other words${widen.length ? ", or " + widen.join(" and ") : ""}.` }));
}

function normaliseFacet(value) {
  if (!value) return [];
  if (Array.isArray(value)) return value.map((b) => Array.isArray(b) ? b : [b.name ?? b.value ?? "", b.count ?? 0]);
  if (typeof value === "object") return Object.entries(value).sort((a, b) => b[1] - a[1]);
  return [];
}
