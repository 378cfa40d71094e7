// Transcript analysis of one session: turns, compactions, tool calls, where the tokens went, and
// the context hooks injected (carto's own recall marked as such: it was never the user's words).

import { NOT_HERE, api, el, failure, fmtTime, iso, prose, sessionHref, short, show, svg, visible } from "./dom.js";

const CATEGORY_LABEL = {
  prompt: "prompts", assistant: "replies", thinking: "thinking", tool_call: "tool calls",
  tool_result: "tool results", injected: "injected context", compact_summary: "compaction summaries",
  meta: "meta (skills, commands)", harness: "harness",
};
// Inline style attributes are refused by the page's CSP (style-src 'self'): colours are classes
// (cat-<category> in app.css), widths are set through the CSSOM.
const styled = (node, property, value) => { node.style[property] = value; return node; };
const num = (n) => (n ?? 0).toLocaleString("en");

function shareBar(categories, total) {
  const width = 1000;
  let x = 0;
  const parts = [];
  for (const [name, entry] of Object.entries(categories)) {
    if (!entry.estimated_tokens) continue;
    const w = Math.max(2, (entry.estimated_tokens / total) * width);
    parts.push(svg("rect", { x, y: 0, width: w, height: 26, class: `share cat-${name}` },
      svg("title", { text: `${CATEGORY_LABEL[name]}: ~${num(entry.estimated_tokens)} tokens` })));
    x += w;
  }
  return el("figure", { class: "chart", id: "token-shares" },
    svg("svg", { viewBox: `0 0 ${Math.max(width, x)} 26`, preserveAspectRatio: "none", width: "100%", height: 26, role: "img", "aria-label": "Estimated tokens by category" }, ...parts),
    el("figcaption", {}, ...Object.entries(categories).filter(([, e]) => e.estimated_tokens).map(([name, e]) =>
      el("span", { class: "legend" }, el("span", { class: `swatch cat-${name}` }),
        `${CATEGORY_LABEL[name]} ~${num(e.estimated_tokens)} (${Math.round((e.estimated_tokens / total) * 100)}%)`))));
}

function injectedItem(item) {
  const recall = item.kind === "carto_recall";
  return el("li", { class: `injected ${recall ? "recall" : ""}` },
    el("div", { class: "muted" },
      el("span", { class: `badge ${recall ? "semantic" : ""}`, text: recall ? "injected · carto recall" : "injected · hook" }),
      ` ${item.hook || item.event || "hook"} · ${fmtTime(item.timestamp)} · ${num(item.chars)} chars${item.turn === null ? " · before the first prompt" : ` · turn ${item.turn + 1}`}${item.truncated ? " · cut" : ""}`),
    el("pre", { text: prose(item.text) }));
}

export async function viewAnalysis(sid) {
  const title = `Transcript analysis · session ${short(sid)}`;
  show(el("h1", { text: title }), el("p", { class: "muted", text: "Reading the transcript…" }));
  let data;
  try {
    const session = await api(`/api/sessions/${encodeURIComponent(sid)}`).catch(() => null);
    // A prefix (the eight characters the views show) resolved to its session: asked and named
    // by the whole id from now on.
    if (session && session.session.session_id !== sid) {
      sid = session.session.session_id;
      history.replaceState(null, "", `#/analysis/${encodeURIComponent(sid)}`);
    }
    const params = new URLSearchParams({ session_id: sid, limit: "500" });
    if (session && session.session.transcript_path) params.set("path", session.session.transcript_path);
    data = await api(`/api/transcript/analysis?${params}`);
  } catch (error) {
    show(el("h1", { text: title }), el("p", {}, el("a", { href: sessionHref(sid), text: "← the session" })),
      error.code === "TRANSCRIPT_NOT_FOUND" ? el("p", { class: "muted", id: "no-transcript", text: NOT_HERE }) : failure(error));
    return;
  }
  const t = data.tokens;
  const reported = t.reported;
  const maxTurn = Math.max(1, ...data.turns.map((turn) => Object.values(turn.estimated_tokens).reduce((a, b) => a + b, 0)));
  const nodes = [
    el("h1", { id: "analysis-title", text: title }),
    el("p", {}, el("a", { href: sessionHref(sid), text: "← the session" })),
    el("dl", { class: "kv", id: "analysis-summary" },
      el("dt", { text: "transcript" }), el("dd", {}, ...iso`${data.path} (${data.provider || "?"}, ${data.path_status})`),
      el("dt", { text: "lines" }), el("dd", { text: `${num(data.lines)}${data.unreadable_lines ? ` (${num(data.unreadable_lines)} unreadable)` : ""}` }),
      el("dt", { text: "turns" }), el("dd", { text: num(data.turns_total) }),
      el("dt", { text: "compactions" }), el("dd", { text: num(data.compactions.length) }),
      el("dt", { text: "tool calls" }), el("dd", { text: `${num(data.tools.reduce((a, x) => a + x.calls, 0))} (${num(data.tools.reduce((a, x) => a + x.failed, 0))} failed)` }),
      el("dt", { text: "tokens (reported)" }), el("dd", { text: `${num(reported.input)} in · ${num(reported.output)} out · ${num(reported.cache_read)} cache read · ${num(reported.cache_write)} cache write` }),
      el("dt", { text: "tokens (estimated)" }), el("dd", { text: `~${num(t.estimated)} (${t.estimate_rule}, per category below)` }),
      el("dt", { text: "injected" }), el("dd", { text: `${num(data.injected.count)} (${num(data.injected.carto_recall)} carto recall) · ~${num(data.injected.estimated_tokens)} tokens` })),
    el("h2", { text: "Where the tokens went (estimated)" }),
    t.estimated ? shareBar(data.categories, t.estimated) : el("p", { class: "muted", text: "Nothing to attribute." }),
    el("h2", { text: `Tools (${data.tools.length})` }),
    data.tools.length ? el("table", { id: "analysis-tools" },
      el("thead", {}, el("tr", {}, ...["Tool", "Calls", "Failed", "Input chars", "Result chars", "~Tokens"].map((h) => el("th", { text: h })))),
      el("tbody", {}, ...data.tools.map((x) => el("tr", {}, el("td", { text: visible(x.name) }), el("td", { text: num(x.calls) }),
        el("td", { class: x.failed ? "warn" : "", text: num(x.failed) }), el("td", { text: num(x.input_chars) }), el("td", { text: num(x.result_chars) }), el("td", { text: num(x.estimated_tokens) })))))
      : el("p", { class: "muted", text: "No tool calls." }),
    el("h2", { text: `Compactions (${data.compactions.length})` }),
    data.compactions.length ? el("ul", { id: "analysis-compactions" }, ...data.compactions.map((c) => el("li", {},
      `${fmtTime(c.timestamp)} · ${c.trigger || "?"}${c.pre_tokens ? ` · ${num(c.pre_tokens)} tokens before` : ""}${c.post_tokens ? `, ${num(c.post_tokens)} after` : ""} · after turn ${c.turn === null ? "—" : c.turn + 1}${c.summary_chars ? ` · summary ${num(c.summary_chars)} chars` : ""}`)))
      : el("p", { class: "muted", text: "The context was never compacted." }),
    el("h2", { text: `Injected context (${data.injected.count})` }),
    data.injected.count ? el("ol", { class: "messages", id: "analysis-injected" }, ...data.injected.items.map(injectedItem))
      : el("p", { class: "muted", text: "No hook added context to this session." }),
    el("h2", { text: `Turns (${data.turns_total}${data.turns.length < data.turns_total ? `, first ${data.turns.length}` : ""})` }),
    el("table", { id: "analysis-turns" },
      el("thead", {}, el("tr", {}, ...["#", "Time", "Prompt", "Tools", "~Tokens", "Reported out", "Marks"].map((h) => el("th", { text: h })))),
      el("tbody", {}, ...data.turns.map((turn) => {
        const est = Object.values(turn.estimated_tokens).reduce((a, b) => a + b, 0);
        return el("tr", { "data-selectable": true },
          el("td", { text: turn.index + 1 }), el("td", { text: fmtTime(turn.timestamp) }),
          el("td", { class: "summary", text: prose(turn.prompt) + (turn.prompt_truncated ? "…" : "") }),
          el("td", { text: Object.entries(turn.tools).map(([n, c]) => `${visible(n)}×${c}`).join(", ") + (turn.failed ? ` (${turn.failed} failed)` : "") }),
          el("td", {}, el("span", { class: "meter" }, styled(el("span"), "width", `${Math.round((est / maxTurn) * 100)}%`)), ` ${num(est)}`),
          el("td", { text: num(turn.reported_tokens.output) }),
          el("td", {}, turn.injected.length ? el("span", { class: "badge semantic", text: `injected ×${turn.injected.length}` }) : null,
            turn.compacted ? el("span", { class: "badge", text: "compacted" }) : null));
      }))),
  ];
  show(...nodes);
}
