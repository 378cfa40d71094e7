// Internals: why each result ranked where it did (its rank in each ladder, the fused score, the
// decay and boost the policy applied, the lookup gate), and what the call decided (candidates,
// trim, gate count, decay knobs) and spent (stage timings, per-ladder reports).

import { api, el, failure, iso, prose, query, rec, sessionHref, short, show, svg, counted } from "./dom.js";

const fmt = (x, digits = 4) => (typeof x === "number" ? x.toPrecision(digits) : "—");

function stageBars(stages) {
  const names = Object.keys(stages).filter((k) => k !== "total");
  const total = Math.max(1e-9, ...names.map((k) => stages[k]));
  const rowH = 20;
  return el("figure", { class: "chart", id: "internals-stages" },
    svg("svg", { viewBox: `0 0 600 ${names.length * rowH}`, width: 600, height: names.length * rowH, preserveAspectRatio: "xMinYMin meet", role: "img", "aria-label": "Stage timings" },
      ...names.map((name, i) => [
        svg("text", { x: 0, y: i * rowH + 14, text: name }),
        svg("rect", { x: 110, y: i * rowH + 4, width: Math.max(1, (stages[name] / total) * 400), height: 12, class: "bar stage" }),
        svg("text", { x: 120 + Math.max(1, (stages[name] / total) * 400), y: i * rowH + 14, text: `${stages[name]} ms` }),
      ]).flat()),
    el("figcaption", { class: "muted", text: `total ${stages.total} ms (the server's own clock, this call)` }));
}

export async function viewInternals(params) {
  const state = { q: params.get("q") || "", project: params.get("project") || "", since: params.get("since") || "" };
  const box = el("input", { type: "search", id: "internals-q", value: state.q, placeholder: "a query to explain", "aria-label": "Query" });
  const form = el("form", { class: "search", onsubmit: (event) => { event.preventDefault(); location.hash = `#/internals?${query({ ...state, q: box.value.trim() })}`; } },
    box, el("button", { type: "submit", text: "Explain" }));
  if (!state.q) { show(el("h1", { text: "Internals" }), form, el("p", { class: "muted", text: "Type a query: each result is shown with the reasons for its place." })); return; }
  show(el("h1", { text: "Internals" }), form, el("p", { class: "muted", text: "Searching…" }));
  let data;
  const body = { query: state.q, limit: 25, explain: true };
  if (state.project) body.project = state.project;
  if (state.since) body.since = state.since;
  try { data = await api("/api/recall", body); }
  catch (error) { show(el("h1", { text: "Internals" }), form, failure(error)); return; }
  const x = data.explain;
  const ladders = Object.keys(x.ladders);
  const maxScore = Math.max(1e-12, ...data.results.map((h) => h.score));
  show(
    el("h1", {}, "Internals · “", rec(state.q), "”"), form,
    el("p", {}, el("a", { href: `#/search?${query({ q: state.q, project: state.project, since: state.since })}`, text: "← the results" })),
    el("div", { class: "cards", id: "internals-call" },
      el("section", { class: "card" }, el("h3", { text: "Fusion and trim" }),
        el("p", { text: `${x.fusion}: ${counted(x.candidates, "candidate")} from ${counted(ladders.length, "ladder")}; the trim keeps scores ≥ ${x.trim.ratio} × the best (${fmt(x.trim.floor)}): ${x.trim.kept} kept, ${x.trim.dropped} dropped.` })),
      el("section", { class: "card" }, el("h3", { text: "Gate" }),
        el("p", { text: x.gate.all_token_matches === null ? "No ladder could count the documents holding every query word." : `${counted(x.gate.all_token_matches, "in-scope document holds", "in-scope documents hold")} every query word (a lookup when 1 to ${x.gate.lookup_max}); ${counted(x.gate.gated, "candidate was", "candidates were")} lifted ×${x.decay.lift} without decay.` })),
      el("section", { class: "card" }, el("h3", { text: `Decay: ${x.decay.policy}` }),
        el("p", { class: "muted", text: Object.entries(x.decay).filter(([k]) => k !== "policy").map(([k, v]) => `${k} ${v}`).join(" · ") }))),
    el("h2", { text: "Ladders" }),
    el("table", { id: "internals-ladders" },
      el("thead", {}, el("tr", {}, ...["Ladder", "Ranker", "Status", "Candidates", "In page", "ms", "Reason"].map((h) => el("th", { text: h })))),
      el("tbody", {}, ...data.ladders.map((l) => el("tr", {}, el("td", { text: l.name }), el("td", { text: l.ranker }), el("td", { text: l.status }),
        el("td", { text: l.candidates }), el("td", { text: l.contributed }), el("td", { text: l.ms }), el("td", { class: "summary", text: prose(l.reason) }))))),
    el("h2", { text: "Stages" }), stageBars(data.stages_ms),
    el("h2", { text: `Results (${data.results.length})` }),
    el("table", { id: "internals-results" },
      el("thead", {}, el("tr", {}, ...["#", "Result", ...ladders.map((l) => `rank · ${l}`), "Fused", "× decay", "× boost", "= score", "Gate"].map((h) => el("th", { text: h })))),
      el("tbody", {}, ...data.results.map((h) => {
        const w = h.why;
        const meter = el("span", { class: "meter" }, (() => { const bar = el("span"); bar.style.width = `${Math.round((h.score / maxScore) * 100)}%`; return bar; })());
        return el("tr", { "data-selectable": true, "data-event": h.event_id },
          el("td", { text: h.rank }),
          el("td", { class: "summary" }, el("div", { text: prose(h.summary) }), el("div", { class: "muted" }, ...iso`${h.type} · ${h.project || "no project"} · `, h.session_id ? el("a", { href: sessionHref(h.session_id), text: short(h.session_id) }) : "")),
          ...ladders.map((l) => el("td", { class: w.ranks[l] ? "rank" : "muted", text: w.ranks[l] ?? "—" })),
          el("td", { text: fmt(w.fused_score) }), el("td", { text: fmt(w.decay) }), el("td", { text: fmt(w.boost) }),
          el("td", {}, meter, ` ${fmt(w.score)}`),
          el("td", {}, w.gated ? el("span", { class: "badge semantic", text: "lookup ×lift" }) : w.holds_all_tokens ? el("span", { class: "badge", text: "all words" }) : ""));
      }))));
}
