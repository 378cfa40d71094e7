// Session: its wrapup, commits, files, turns, events, and the transcript on demand.

import { NOT_HERE, NO_PROJECT, api, el, failure, fmtTime, iso, longText, named, prose, rec, reviewHref, safeHref, short, show, unfoldShort, visible, counted } from "./dom.js";
import { loadTree } from "./tree.js";

const commitSha = (c) => (/\b([0-9a-f]{7,40})\b/.exec(c.summary || "") || [])[1] || "";

export async function viewSession(sid) {
  show(el("h1", { text: `Session ${short(sid)}` }), el("p", { class: "muted", text: "Loading…" }));
  let data;
  try { data = await api(`/api/sessions/${encodeURIComponent(sid)}`); }
  catch (error) {
    const candidates = error.code === "AMBIGUOUS_SESSION" ? error.data.candidates || [] : [];
    // A prefix several sessions share: each of them a link, as `carto session` lists them.
    show(el("h1", { text: `Session ${short(sid)}` }), candidates.length
      ? el("div", { id: "session-candidates" }, el("p", { text: error.message.split(";")[0] + ":" }),
        el("ul", {}, ...candidates.map((c) => el("li", {}, el("a", { href: `#/session/${encodeURIComponent(c)}`, class: "sha", text: visible(c) })))),
        candidates.length < Number.parseInt(error.message, 10) ? el("p", { class: "muted", text: "… and more: give more of the id." }) : null)
      : failure(error));
    return;
  }
  const s = data.session;
  // A prefix resolved to its session: the address names the whole id from now on.
  if (s.session_id !== sid) history.replaceState(null, "", `#/session/${encodeURIComponent(s.session_id)}`);
  const transcriptBox = el("section", { id: "transcript", "aria-label": "Transcript" });
  const nodes = [
    el("h1", { id: "session-title" }, ...iso`Session ${short(s.session_id)} · ${s.project || NO_PROJECT}`),
    el("dl", { class: "kv" },
      el("dt", { text: "session" }), el("dd", { class: "id", text: visible(s.session_id) }),
      el("dt", { text: "agent" }), el("dd", { text: visible(s.provider) }),
      el("dt", { text: "projects" }), el("dd", {}, ...(s.projects.length ? s.projects.flatMap((p, i) => [i ? ", " : "", named(p)]) : [el("span", { class: "muted", text: NO_PROJECT })])),
      el("dt", { text: "span" }), el("dd", { text: `${fmtTime(s.started)} → ${fmtTime(s.ended)}` }),
      el("dt", { text: "events" }), el("dd", { text: `${s.events} (${counted(s.commits, "commit")}, ${counted(s.edits, "edit")}, ${counted(s.prompts, "prompt")}, ${counted(s.turns, "turn")})` }),
      el("dt", { text: "transcript" }), el("dd", { text: s.transcript_path ? visible(s.transcript_path) : "not recorded" })),
  ];
  for (const w of data.wrapup) {
    nodes.push(el("h2", { text: "Wrapup" }), el("p", { text: prose(w.description) }));
    if (w.key_insight) nodes.push(el("p", {}, el("strong", { text: "Key insight: " }), rec(w.key_insight)));
    if (w.decisions.length) nodes.push(el("h3", { text: "Decisions" }), el("ul", {}, ...w.decisions.map((d) => el("li", { text: d }))));
    if (w.others_commits) nodes.push(el("p", { class: "muted", text: `${counted(w.others_commits, "decision")} left out: the subject of a commit another author wrote` }));
    if (w.unresolved.length) nodes.push(el("h3", { text: "Unresolved" }), el("ul", {}, ...w.unresolved.map((d) => el("li", { text: d }))));
  }
  nodes.push(el("h2", { text: `Commits (${data.commits.length})` }),
    data.commits.length ? el("ul", { id: "session-commits" }, ...data.commits.map((c) => el("li", {}, el("span", { class: "muted", text: `${fmtTime(c.timestamp)} ` }), rec(c.summary),
      commitSha(c) ? el("span", {}, " · ", el("a", { class: "review", href: reviewHref(s.session_id, { commit: commitSha(c) }), text: "review the diff" })) : null)))
      : el("p", { class: "muted", text: "No commits." }));
  nodes.push(el("h2", { text: `Files (${data.files.length})` }),
    data.files.length ? el("table", { id: "session-files" }, el("thead", {}, el("tr", {}, el("th", { text: "File" }), el("th", { text: "Touches" }), el("th", { text: "Last" }))),
      el("tbody", {}, ...data.files.map((f) => el("tr", {}, el("td", { class: "summary" }, el("a", { class: "review", href: reviewHref(s.session_id, { path: f.path }), text: visible(f.path) })), el("td", { text: f.touches }), el("td", { text: fmtTime(f.last_touched) })))))
      : el("p", { class: "muted", text: "No file edits recorded." }));
  const treeBox = el("section", { id: "session-tree", "aria-label": "Agent tree" });
  nodes.push(el("h2", { text: "Agent tree" }), treeBox);
  nodes.push(el("h2", { text: `Transcript turns (${data.turns.length})` }),
    data.turns.length ? el("ol", { id: "session-turns" }, ...data.turns.map((t) => el("li", {}, el("span", { class: "muted", text: `${fmtTime(t.timestamp)} ` }), longText(t.summary || "", "turn-text"))))
      : el("p", { class: "muted", text: "No turns indexed for this session." }));
  if (s.transcript_available === false) {
    // A session recorded on another machine, or whose transcript was deleted: nothing to read.
    nodes.push(el("p", { class: "muted", id: "no-transcript", text: NOT_HERE }));
  } else {
    nodes.push(el("p", {}, el("a", { id: "open-analysis", href: `#/analysis/${encodeURIComponent(s.session_id)}`, text: "Transcript analysis: turns, compactions, tools, tokens, injected context →" })));
    nodes.push(el("button", { type: "button", id: "load-transcript", onclick: () => loadTranscript(s, transcriptBox), text: "Read the transcript" }), transcriptBox);
  }
  nodes.push(el("h2", { text: `Events (${data.events.length})` }),
    el("table", { id: "session-events" },
      el("thead", {}, el("tr", {}, ...["Time", "Type", "Source", "Summary"].map((h) => el("th", { text: h })))),
      el("tbody", {}, ...data.events.map((e) => {
        const link = safeHref(e.url);
        return el("tr", {}, el("td", { text: fmtTime(e.timestamp) }), el("td", { text: visible(e.type) }), el("td", { text: visible(e.sources.join("+")) }),
          el("td", { class: "summary" }, longText(e.summary || "", "event-text"), link ? el("span", {}, " ", el("a", { href: link, rel: "noopener noreferrer", target: "_blank", text: "open" })) : null));
      }))));
  show(...nodes);
  unfoldShort(document.getElementById("main"));
  document.getElementById("session-title").focus?.();
  await loadTree(s.session_id, treeBox, (node, box) => loadTranscript({ session_id: node.session_id, transcript_path: node.transcript_path }, box));
}

async function loadTranscript(s, box) {
  box.replaceChildren(el("p", { class: "muted", text: "Reading the transcript…" }));
  const query = new URLSearchParams({ session_id: s.session_id, limit: "200" });
  if (s.transcript_path) query.set("path", s.transcript_path);
  try {
    const data = await api(`/api/transcript?${query}`);
    box.replaceChildren(el("p", { class: "muted" }, ...iso`${counted(data.total, "message")} · ${data.path} (${data.path_status})`),
      el("ol", { class: "messages" }, ...data.messages.map((m) => el("li", { class: m.role },
        el("div", { class: "muted", text: `${m.role} · ${fmtTime(m.timestamp)}${m.truncated ? " · cut" : ""}` }), el("pre", { text: prose(m.text) })))));
  } catch (error) {
    box.replaceChildren(error.code === "TRANSCRIPT_NOT_FOUND" ? el("p", { class: "muted", text: NOT_HERE })
      : el("p", { class: "error", text: `Transcript unavailable: ${error.message}` }));
  }
}
