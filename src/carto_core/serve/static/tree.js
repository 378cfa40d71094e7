// A session as a tree (`carto session ID --tree`): the main agent, each subagent under the call
// that started it (or under its agent when no call names it), their turns and tool calls, and
// each node's own transcript, readable in place.

import { api, counted, el, fmtTime, named, prose, rec, sessionHref, visible } from "./dom.js";

const KINDS = { main: "main agent", sidechain: "inline sidechain", file: "own file", thread: "Codex thread" };
const clip = (text, width) => { const t = (text || "").replace(/\s+/g, " ").trim(); return t.length <= width ? t : `${t.slice(0, width - 1)}…`; };

function label(node) {
  if (node.kind === "main") return "main agent";
  // The agent's id and type are recorded text: each shown as the characters it holds.
  const parts = [KINDS[node.kind] || node.kind, node.agent_type && visible(node.agent_type)].filter(Boolean);
  if (node.spawned_by === null) parts.push("no call names it");
  return `subagent ${visible(node.agent)} (${parts.join(", ")})`;
}

function call(c, readTranscript) {
  return el("li", { class: "tree-call", "data-call": c.event_id, ...(c.failed ? { "data-failed": "true" } : {}) },
    // The call's name and input (a path, a command) are recorded text: in their own boxes, their
    // direction controls shown (a U+202E in a path made /work/src/txt.exe read exe.txt).
    el("code", {}, `#${c.n} `, named(c.name)), " ", el("span", { class: "muted" }, named(clip(c.input, 90))),
    c.agent_type ? named(c.agent_type, { class: "badge" }) : null,
    c.failed ? el("span", { class: "badge failed", text: "failed" }) : null,
    c.agent ? node(c.agent, readTranscript) : (c.spawned ? el("span", { class: "muted" }, " → ", named(c.spawned), " (not ingested)") : null));
}

function node(n, readTranscript) {
  const box = el("div", { class: "tree-transcript" });
  const read = n.transcript_path ? el("button", { type: "button", class: "read-node-transcript", onclick: () => readTranscript(n, box), text: "read" }) : null;
  return el("details", { class: "tree-node", open: true, "data-agent": n.agent, "data-kind": n.kind, "data-session": n.session_id },
    el("summary", {}, el("strong", { class: "tree-label", text: label(n) }), ` · ${counted(n.turns.length, "turn")} · `,
      el("code", { class: "tree-path" }, n.transcript_path ? named(n.transcript_path) : "no transcript"), " ", read),
    box,
    el("ol", { class: "tree-turns" }, ...n.turns.map((t) => el("li", { class: "tree-turn", "data-event-id": t.event_id },
      el("span", { class: "muted", text: `turn ${t.turn_idx ?? "?"} · ${fmtTime(t.timestamp)} ` }), rec(clip(t.summary, 160)),
      t.tools.length ? el("ul", { class: "tree-calls" }, ...t.tools.map((c) => call(c, readTranscript))) : null,
      t.tools_dropped ? el("div", { class: "muted", text: `… ${t.tools_dropped} more calls (not recorded)` }) : null))),
    ...n.agents.map((child) => node(child, readTranscript)));
}

// Fills `box` with the tree of session `sid`; `readTranscript(node, into)` shows a node's file.
export async function loadTree(sid, box, readTranscript) {
  box.replaceChildren(el("p", { class: "muted", text: "Reading the agent tree…" }));
  try {
    const d = await api(`/api/sessions/${encodeURIComponent(sid)}/tree`);
    const c = d.counts;
    box.replaceChildren(
      el("p", { class: "stats", id: "tree-stats" },
        `${counted(c.agents, "subagent")}${c.unlinked_agents ? ` (${c.unlinked_agents} no call names)` : ""} · ${counted(c.turns, "turn")} · ${counted(c.tool_calls, "tool call")} in the transcripts${c.hook_tool_calls && !c.turns ? ` · hooks recorded ${counted(c.hook_tool_calls, "tool call")}` : ""}`,
        d.parent_session ? [" · a sub-agent thread of ", el("a", { href: sessionHref(d.parent_session), text: visible(d.parent_session) })] : null),
      node(d.tree, readTranscript));
  } catch (error) {
    box.replaceChildren(el("p", { class: "error", text: `Agent tree unavailable: ${prose(error.message)}` }));
  }
}
