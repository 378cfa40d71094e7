// Shared helpers of the explorer's views: node builders, the API client, formatting.
//
// Safety rule for every module of the page: corpus text reaches the page through textContent
// (the `el` helper) and SVG <text> nodes only, never innerHTML; links taken from the corpus
// pass `safeHref` (http, https, mailto, #). The server's Content-Security-Policy forbids inline
// script as a second line of defence.

const SVG = "http://www.w3.org/2000/svg";

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

export function svg(tag, attrs = {}, ...children) {
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

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    // A refused token's answer holds its sentence in `message` (`error` is only "unauthorized").
    const message = data && data.code === "token_required" && data.message ? data.message
      : data && data.error ? data.error : `HTTP ${response.status}`;
    const error = new Error(message); error.status = response.status; error.code = data && data.code; error.data = data || {}; throw error;
  }
  return data;
}

// The team switch (the header's checkbox, shown when this home has a team): views that can ask
// the team server add `team` to their calls while it is on. Kept in the tab's session.
export const teamOn = () => sessionStorage.getItem("carto-team") === "1";
export const setTeam = (on) => sessionStorage.setItem("carto-team", on ? "1" : "0");
// "alice on alice-laptop" for an answer of the team (empty when the answer is this home's).
export const byline = (item) => (item && item.machine ? `${item.author || "?"} on ${item.machine}` : "");
// The one line a team answer adds: whose rows, or why only this home's.
export function teamNote(team) {
  if (!team) return null;
  const text = team.state === "ok" ? `team ${team.team} (${team.server})`
    : `team ${team.state.replace(/_/g, " ")}: this home's answer alone (${team.reason || ""})`;
  return el("p", { class: team.state === "ok" ? "muted team-note" : "warn team-note", id: "team-note", text });
}

// "1 event", "3 events": a count agrees with its noun (the CLI's `util.terminal.counted`).
export const counted = (n, noun, plural = `${noun}s`) => `${n} ${Number(n) === 1 ? noun : plural}`;

// A text that can run to thousands of characters (a turn: a pasted plan, a survey's report):
// past LONG_TEXT it shows its first four lines, and a button shows all of it (and fewer again).
// `unfoldShort(root)`, once the nodes are in the page, takes the button off a text that fits its
// lines anyway (short lines, a wide window).
const LONG_TEXT = 400;
export function longText(text, cls = "summary") {
  const box = el("div", { class: cls, text: prose(text) });
  if (text.length <= LONG_TEXT) return box;
  box.classList.add("clamped");
  const more = `show all (${counted(text.length, "character")})`;
  const toggle = el("button", { type: "button", class: "more", "aria-expanded": "false", text: more, onclick: () => {
    const open = box.classList.toggle("clamped") === false;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? "show less" : more;
  } });
  return el("div", { class: "long-text" }, box, toggle);
}

export function unfoldShort(root) {
  for (const box of root.querySelectorAll(".clamped")) {
    if (box.scrollHeight <= box.clientHeight + 1) { box.classList.remove("clamped"); box.nextElementSibling.remove(); }
  }
}

// A window in days from the address: the API's bounds (1..3650) taken as the nearest value, and
// anything not a number as `fallback`, so that a hand-typed window draws the view (with its
// controls) instead of a refusal.
export function windowDays(value, fallback) {
  const asked = Number.parseInt(value || "", 10);
  return Number.isFinite(asked) ? Math.min(3650, Math.max(1, asked)) : fallback;
}

// Recorded text (a path, a project, a session id, a summary) can hold direction controls: a
// U+202E in a cwd reverses whatever follows it on the line, the page's own words included, and
// makes `exe.txt` read as `txt.exe`. Two defences: every piece of recorded text sits in its own
// isolated box (`rec`, `named`, `iso`; app.css isolates inline elements of the page), so it can
// reorder only itself; and in names, ids and paths each control is shown as ⟨U+202E⟩, so a name
// reads as the characters it holds.
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
export const visible = (value) => String(value ?? "").replace(DIRECTION_CONTROLS,
  (c) => `⟨U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
// Prose keeps its marks (an RLM in Hebrew text is the writer's) but not an override (U+202D,
// U+202E), which no prose needs and which turns `txt.exe` in a summary into `exe.txt`.
const OVERRIDES = /[\u202D\u202E]/g;
export const prose = (value) => String(value ?? "").replace(OVERRIDES, (c) => visible(c));
// Prose (a summary, a subject, a query) in its own box.
export const rec = (value, attrs = {}) => el("bdi", { ...attrs, text: prose(value) });
// A name, id or path in its own box, its direction controls shown.
export const named = (value, attrs = {}) => el("bdi", { ...attrs, text: visible(value) });
// A label with recorded values in it: iso`${project} · ${short(id)}` gives the words as text and
// each value as a `named`, to spread into `el`'s children.
export function iso(strings, ...values) {
  const out = [];
  strings.forEach((text, i) => {
    if (text) out.push(text);
    if (i < values.length) out.push(named(values[i]));
  });
  return out;
}

// A button that puts `value` (an event id: `carto search --get` takes it) on the clipboard and
// says so; the clipboard API needs a secure context, which 127.0.0.1 is.
export function copyButton(value, label = "copy id") {
  const button = el("button", { type: "button", class: "copy", title: `copy ${value}`, text: label, onclick: async () => {
    try { await navigator.clipboard.writeText(value); button.textContent = "copied"; }
    catch { button.textContent = "select the id to copy it"; }
    setTimeout(() => { button.textContent = label; }, 1500);
  } });
  return button;
}

// What a view says of a transcript this machine does not hold (`/api/transcript` 404s, the
// session's `transcript_available` is false): a state, not a failure.
export const NOT_HERE = "The transcript is not on this machine (recorded elsewhere, or moved or deleted since).";

// What every view calls the events and sessions no project was recorded for.
export const NO_PROJECT = "no project";

export const fmtTime = (iso) => (iso ? iso.replace("T", " ").replace("Z", "") : "undated");
// A session id as a person tells it apart: a UUID or hash by its first eight hex digits; any
// other id (a transcript named by hand, an imported log) whole, or its first 23 characters
// and an ellipsis, since its first eight may be half a word.
export const short = (id) => {
  const text = visible(id || "");
  if (/^[0-9a-f]{8}/i.test(text)) return text.slice(0, 8);
  return text.length <= 24 ? text : `${text.slice(0, 23)}…`;
};
export const sessionHref = (sid) => `#/session/${encodeURIComponent(sid)}`;
// The review of a file or commit of a session (`#/review`, confined to its repository).
export const reviewHref = (sid, params) => `#/review/${encodeURIComponent(sid)}?${query(params)}`;
export const query = (params) => {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== "" && value !== null && value !== undefined) out.set(key, value);
  return out.toString();
};

export function ago(iso) {
  if (!iso) return "";
  const minutes = Math.round((Date.now() - Date.parse(iso)) / 60000);
  if (minutes < 60) return `${minutes}m ago`;
  if (minutes < 60 * 48) return `${Math.round(minutes / 60)}h ago`;
  return `${Math.round(minutes / 1440)}d ago`;
}

export function span(ms) {
  const hours = ms / 3600000;
  if (hours < 1) return `${Math.max(1, Math.round(ms / 60000))} min`;
  if (hours < 48) return `${Math.round(hours)} h`;
  return `${Math.round(hours / 24)} d`;
}

const main = () => document.getElementById("main");

export function show(...nodes) {
  main().replaceChildren(...nodes);
}

// Answers that are the state of the home or of the question, not a failure: a new home with
// nothing recorded, a query with no word in it. Said as they are, without "Could not load".
const STATES = new Set(["EMPTY_HOME", "RECALL_INVALID", "NO_LOGS"]);

export function failure(error) {
  if (STATES.has(error.code)) return el("p", { class: "muted notice", role: "status", text: upper(prose(error.message)) });
  return el("p", { class: "error", role: "alert", text: `Could not load: ${prose(error.message)}` });
}

const upper = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// A <select> of preset choices that also shows a value outside the presets (a URL typed by
// hand, a link from elsewhere) instead of silently showing the first option.
export function choice(id, ariaLabel, label, presets, current, onchange) {
  const options = presets.slice();
  if (current !== "" && current !== null && !options.some(([value]) => String(value) === String(current))) {
    options.push([current, label(current)]);
  }
  const select = el("select", { id, "aria-label": ariaLabel, onchange: () => onchange(select.value) },
    ...options.map(([value, text]) => el("option", { value, text, selected: String(value) === String(current) })));
  return select;
}
