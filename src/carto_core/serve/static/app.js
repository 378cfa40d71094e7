// carto explorer: ES modules, no build step. This one routes, binds the keys and follows the
// stream; each view lives in its own module (see dom.js for the page's safety rule).

import { viewActivity } from "./activity.js";
import { viewAnalysis } from "./analysis.js";
import { viewDay, viewDesk, viewReview } from "./desk.js";
import { api, counted, el, named, setTeam, show, teamOn, visible } from "./dom.js";
import { viewInternals } from "./internals.js";
import { viewRecall } from "./recall.js";
import { viewSearch } from "./search.js";
import { viewSession } from "./session.js";
import { viewStandup } from "./standup.js";
import { viewTimeline } from "./timeline.js";

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = raw.split("?");
  const parts = path.split("/").map(decodeURIComponent);
  return { view: parts[0] || "search", arg: parts[1] || "", rest: parts.slice(1), params: new URLSearchParams(query) };
}

const views = { search: viewSearch, desk: viewDesk, recall: viewRecall, internals: viewInternals, timeline: viewTimeline, standup: viewStandup, activity: viewActivity };
// Views that take the path after their name (`#/session/<id>`).
const pathViews = { session: (arg) => viewSession(arg), analysis: (arg) => viewAnalysis(arg), day: (arg) => viewDay(arg), review: (arg, params) => viewReview(arg, params) };

async function route() {
  const { view, arg, params } = parseHash();
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.view === view) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  selected = -1;
  delete document.body.dataset.ready;
  if (pathViews[view] && arg) await pathViews[view](arg, params);
  else if (views[view]) await views[view](params);
  else noSuchView();
  // The tab and the history entry are named after the view, so that open tabs tell apart.
  const heading = document.querySelector("main h1")?.textContent || "";
  const q = view === "search" ? params.get("q") : "";
  document.title = [q ? `“${q}”` : "", heading, "carto"].filter(Boolean).join(" · ");
  document.body.dataset.ready = view;
  if (focusSearch && view === "search") document.getElementById("q")?.focus();
  focusSearch = false;
}

// A mistyped or stale address says so rather than showing another view as if it were the one
// asked for.
function noSuchView() {
  const { view } = parseHash();
  const why = pathViews[view] ? `a ${{ session: "session", analysis: "transcript analysis", day: "day", review: "review" }[view]} address names its ${view === "day" ? "day" : "session"} after the slash (#/${view}/${view === "day" ? "2026-01-31" : "5a1e0000"}).`
    : `there is no view called “${view}”.`;
  const names = [["search", "Search"], ["desk", "Desk"], ["recall", "Recall"], ["timeline", "Timeline"], ["standup", "Standup"], ["activity", "Activity"], ["internals", "Internals"]];
  show(el("h1", { text: "No such view" }),
    el("p", { id: "no-such-view" }, "Nothing is at “", named(location.hash), `”: ${why}`),
    el("p", {}, "The views: ", ...names.flatMap(([view, label], i) => [i ? " · " : "", el("a", { href: `#/${view}`, text: label })])));
}

let selected = -1;
let pendingG = false;
// `/` pressed on a view without the search box: the search view opens with its box focused,
// so what is typed next is the query.
let focusSearch = false;

function moveSelection(step) {
  const items = [...document.querySelectorAll("#result-list .result, #session-table tbody tr, [data-selectable]")];
  if (!items.length) return;
  selected = Math.max(0, Math.min(items.length - 1, selected + step));
  items.forEach((item, i) => item.classList.toggle("selected", i === selected));
  const target = items[selected];
  target.scrollIntoView({ block: "nearest" });
  const link = target.querySelector("a");
  if (link) link.focus();
}

const JUMPS = { s: "#/search", d: "#/desk", r: "#/recall", i: "#/internals", t: "#/timeline", u: "#/standup", a: "#/activity" };

document.addEventListener("keydown", (event) => {
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName);
  if (event.key === "Escape" && typing) { document.activeElement.blur(); return; }
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "/") {
    event.preventDefault();
    const box = document.getElementById("q");
    if (box) box.focus(); else { focusSearch = true; location.hash = "#/search"; }
  } else if (event.key === "j") moveSelection(1);
  else if (event.key === "k") moveSelection(-1);
  else if (event.key === "g") { pendingG = true; setTimeout(() => { pendingG = false; }, 1200); return; }
  else if (pendingG && JUMPS[event.key]) {
    location.hash = JUMPS[event.key];
  }
  pendingG = false;
});

function follow() {
  const live = document.getElementById("live");
  // What the stream said since the view was drawn: events added, events rewritten in place (an
  // open turn growing), and whether a log was rewritten (`carto forget`, a repair): then rows
  // may be gone, which a count of new events would misstate.
  let fresh = 0, updated = 0, changed = false;
  const source = new EventSource("/api/stream");
  const render = () => {
    const parts = [fresh ? `${fresh} new` : "", updated ? `${updated} updated` : "", changed ? "the home changed" : ""].filter(Boolean);
    live.replaceChildren(["● live", ...parts].join(" · "));
    if (parts.length) live.append(" ", el("button", { type: "button", text: "refresh view", onclick: () => { fresh = 0; updated = 0; changed = false; render(); route(); } }));
  };
  source.onopen = render;
  source.onmessage = () => { fresh += 1; render(); recount(); };
  source.addEventListener("update", () => { updated += 1; render(); recount(); });
  source.addEventListener("reload", () => { changed = true; render(); recount(); });
  source.onerror = () => { live.replaceChildren("○ offline (retrying)"); };
}

async function status(first = false) {
  try {
    const data = await api("/api/health");
    document.getElementById("corpus-status").textContent = `${counted(data.events, "event")} · ${visible(data.corpus_root)}`;
    if (first && data.team && data.team.configured) teamSwitch(data.team);
  } catch { /* the view shows its own error */ }
}

// The footer counts the home as it is now: asked again after new events arrive (once for a
// burst of them, not once an event).
let recountTimer = null;
function recount() {
  clearTimeout(recountTimer);
  recountTimer = setTimeout(() => status(), 500);
}

// The team switch: shown only when this home has a team; the views that can ask the team
// server (search, standup, timeline, activity) add `team` to their calls while it is on.
function teamSwitch(team) {
  const box = el("input", { type: "checkbox", id: "team-switch", checked: teamOn(),
    onchange: () => { setTeam(box.checked); route(); } });
  const label = el("label", { class: "team-switch", title: `team ${team.team}: every machine's events` }, box, ` team ${team.team}`);
  document.querySelector("header.top").insertBefore(label, document.getElementById("live"));
}

// Views live in "#/..." addresses; any other fragment is a place in the page, not a view.
window.addEventListener("hashchange", () => { if (!location.hash || location.hash.startsWith("#/")) route(); });
// The skip link moves the focus to the content and leaves the address (and so the view) alone.
document.querySelector("a.skip").addEventListener("click", (event) => {
  event.preventDefault();
  document.getElementById("main").focus();
});
route();
status(true);
follow();
