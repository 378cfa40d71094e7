// Recall telemetry: each search call with what the agent asked, what it got (ranked) and what it
// used (an endorsing access) or only looked up (`--get`).

import { api, choice, el, failure, fmtTime, named, prose, query, rec, sessionHref, short, show, visible, windowDays, counted } from "./dom.js";

const DAY_PRESETS = [[1, "last day"], [7, "last 7 days"], [30, "last 30 days"], [365, "last year"]];

function callCard(c) {
  return el("article", { class: "result call", "data-selectable": true, "data-call": c.call_id },
    el("div", { class: "meta" },
      el("span", { text: fmtTime(c.timestamp) }), el("span", { class: "badge", text: c.purpose || "?" }),
      c.session_id ? el("a", { href: sessionHref(c.session_id), text: `session ${short(c.session_id)}` }) : el("span", { text: "no session" }),
      el("span", { text: visible(c.provider || "") }),
      el("span", { text: c.elapsed_ms !== null && c.elapsed_ms !== undefined ? `${Math.round(c.elapsed_ms)} ms` : "" }),
      el("span", { class: "call-counts", text: `${c.counts.served} served · ${c.counts.used} used · ${c.counts.fetched} fetched` })),
    el("div", { class: "summary query" }, el("strong", { text: c.query ? prose(c.query) : "(no query recorded)" }), c.project ? el("span", { class: "muted" }, " in ", named(c.project)) : null),
    c.served.length ? el("ol", { class: "served" }, ...c.served.map((s) => el("li", { class: s.used ? "used" : "" },
      el("span", { class: "muted", text: `#${s.rank ?? "?"} ` }),
      s.used ? el("span", { class: "badge ev-wrapup", text: "used" }) : null,
      s.fetched ? el("span", { class: "badge", text: "fetched" }) : null,
      el("span", { class: "badge semantic", text: s.source || "?" }), " ",
      s.in_corpus ? rec(s.summary) : el("span", { class: "muted" }, named(s.event_id), " (no longer in the corpus)"))))
      : el("p", { class: "muted", text: "Nothing served." }));
}

export async function viewRecall(params) {
  const state = { days: String(windowDays(params.get("days"), 30)), session_id: params.get("session_id") || "", purpose: params.get("purpose") || "", q: params.get("q") || "" };
  const go = (patch) => { location.hash = `#/recall?${query({ ...state, ...patch })}`; };
  show(el("h1", { text: "Recall telemetry" }), el("p", { class: "muted", text: "Loading…" }));
  let data;
  try { data = await api(`/api/telemetry?${query({ ...state, limit: 100 })}`); }
  catch (error) { show(el("h1", { text: "Recall telemetry" }), failure(error)); return; }
  const sum = data.summary;
  const q = el("input", { type: "search", id: "recall-q", placeholder: "query contains…", value: state.q, "aria-label": "Query contains" });
  const purposes = [["", "every purpose"], ...Object.keys(sum.purposes).map((p) => [p, p])];
  show(
    el("h1", { text: "Recall telemetry" }),
    el("form", { class: "search", onsubmit: (event) => { event.preventDefault(); go({ q: q.value.trim() }); } },
      choice("recall-days", "Window", (d) => `last ${d} days`, DAY_PRESETS, state.days, (v) => go({ days: v })),
      q, choice("recall-purpose", "Purpose", (p) => p, purposes, state.purpose, (v) => go({ purpose: v })),
      state.session_id ? el("button", { type: "button", onclick: () => go({ session_id: "" }), text: `session ${short(state.session_id)} ✕` }) : null,
      el("button", { type: "submit", text: "Apply" })),
    el("p", { class: "stats", id: "recall-stats", text: `${counted(sum.calls, "call")} · ${sum.served} served · ${sum.used} used${sum.used_pct === null ? "" : ` (${sum.used_pct}%)`} · ${sum.fetched} fetched · ${counted(sum.calls_with_use, "call")} with a use` }),
    data.calls.length ? el("div", { id: "recall-calls" }, ...data.calls.map(callCard))
      : el("p", { class: "muted", text: Object.keys(data.files).length ? "No call in this window matches." : "No search telemetry yet: `carto search` writes it (the API never does)." }));
}
