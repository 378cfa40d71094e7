// Timeline: sessions as their bursts of activity, in lanes by project and agent.
//
// A linear time axis over a long window gives a session of minutes a fraction of a pixel, so
// the axis is compressed: stretches without any activity shrink to a fixed break (labelled
// with how long they were), active periods share the width, and every burst is drawn at
// least MIN_MARK pixels wide. Sessions that overlap in a lane go to sub-rows.

import { NO_PROJECT, api, choice, el, failure, fmtTime, sessionHref, short, show, span, svg, visible, windowDays, counted } from "./dom.js";

const DAY_PRESETS = [1, 7, 30, 90, 365];
export const MIN_MARK = 8;
const BREAK = 22;
const HOUR = 3600000;

export async function viewTimeline(params) {
  const days = windowDays(params.get("days"), 7);
  const select = choice("days", "Window", (d) => `last ${d} day${Number(d) > 1 ? "s" : ""}`,
    DAY_PRESETS.map((d) => [d, `last ${d} day${d > 1 ? "s" : ""}`]), days,
    (value) => { location.hash = `#/timeline?days=${value}`; });
  const body = el("section", { id: "timeline" }, el("p", { class: "muted", text: "Loading sessions…" }));
  show(el("h1", { text: "Timeline of sessions" }), el("p", {}, "Sessions by project and agent, ", select), body);
  try {
    const data = await api(`/api/sessions?days=${days}&limit=500&bursts=true`);
    body.replaceChildren(...renderTimeline(data.sessions));
  } catch (error) {
    body.replaceChildren(failure(error));
  }
}

// Active periods of the union of `intervals` ([t0, t1] in ms): intervals closer than `gap`
// merge. Returns [{t0, t1, count}] in time order.
export function periods(intervals, gap) {
  const sorted = intervals.slice().sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const [t0, t1] of sorted) {
    const last = out[out.length - 1];
    if (last && t0 - last.t1 <= gap) { last.t1 = Math.max(last.t1, t1); last.count += 1; }
    else out.push({ t0, t1, count: 1 });
  }
  return out;
}

// A compressed axis over `intervals` into [x0, x0 + width]: returns {x(t), periods, breaks}.
export function timeAxis(intervals, x0, width) {
  if (!intervals.length) return { x: () => x0, periods: [], breaks: [] };
  const lo = Math.min(...intervals.map((i) => i[0]));
  const hi = Math.max(...intervals.map((i) => i[1]));
  // Gaps longer than a fiftieth of the whole span (and at least two hours) become breaks.
  const parts = periods(intervals, Math.max(2 * HOUR, (hi - lo) / 50));
  const room = width - BREAK * (parts.length - 1);
  // Room by how much happened (bursts), not by how long a period lasted: a day with two
  // events at its ends needs less room than an hour with six sessions' bursts.
  const weights = parts.map((p) => 1 + p.count);
  const total = weights.reduce((a, b) => a + b, 0);
  let cursor = x0;
  for (let i = 0; i < parts.length; i += 1) {
    const p = parts[i];
    p.x0 = cursor;
    p.x1 = cursor + (room * weights[i]) / total;
    // A little margin inside a period, so that its first and last marks are not cut.
    const pad = Math.max((p.t1 - p.t0) * 0.04, 5 * 60000);
    p.lo = p.t0 - pad; p.hi = p.t1 + pad;
    cursor = p.x1 + BREAK;
  }
  const breaks = parts.slice(1).map((p, i) => ({ x: parts[i].x1, width: BREAK, ms: p.t0 - parts[i].t1 }));
  const x = (t) => {
    // Every burst lies inside one period; a time in a gap is held at the next period's edge.
    const p = parts.find((part) => t <= part.t1) || parts[parts.length - 1];
    const clamped = Math.min(Math.max(t, p.lo), p.hi);
    return p.x0 + ((clamped - p.lo) / Math.max(p.hi - p.lo, 1)) * (p.x1 - p.x0);
  };
  return { x, periods: parts, breaks };
}

function burstsOf(s) {
  const list = (s.bursts && s.bursts.length) ? s.bursts : [[s.started || s.ended, s.ended, s.events]];
  return list.map(([a, b, n]) => [Date.parse(a), Date.parse(b || a), n]);
}

function renderTimeline(sessions) {
  if (!sessions.length) return [el("p", { class: "muted", text: "No sessions in this window." })];
  // Drawn at the page's own width, so that an SVG unit is a CSS pixel (MIN_MARK is pixels).
  const available = (document.getElementById("main")?.clientWidth || 1200) - 60;
  const labelW = 200, plotW = Math.max(480, available - labelW - 20), rowH = 20, top = 34;
  const all = sessions.flatMap((s) => burstsOf(s).map(([a, b]) => [a, b]));
  const axis = timeAxis(all, labelW, plotW);
  // Lanes by project and agent; within a lane, sessions whose drawn spans overlap take
  // separate rows (greedy interval packing in start order).
  const lanes = new Map();
  for (const s of sessions) {
    const key = `${visible(s.project || NO_PROJECT)} · ${visible(s.provider || "unknown agent")}`;
    if (!lanes.has(key)) lanes.set(key, []);
    const bursts = burstsOf(s);
    const marks = bursts.map(([a, b, n]) => { const x0 = axis.x(a); return { x0, w: Math.max(axis.x(b) - x0, MIN_MARK), a, b, n }; });
    const left = Math.min(...marks.map((m) => m.x0));
    const right = Math.max(...marks.map((m) => m.x0 + m.w));
    lanes.get(key).push({ s, marks, left, right });
  }
  const keys = [...lanes.keys()].sort();
  let y = top;
  const laneRows = [];
  for (const key of keys) {
    const rows = [];
    for (const item of lanes.get(key).sort((a, b) => a.left - b.left)) {
      let row = rows.findIndex((end) => end + 4 <= item.left);
      if (row < 0) { row = rows.length; rows.push(0); }
      rows[row] = item.right;
      item.row = row;
    }
    laneRows.push({ key, y, rows: rows.length });
    y += rows.length * rowH + 10;
  }
  const height = y + 4;
  const chart = svg("svg", { viewBox: `0 0 ${labelW + plotW + 20} ${height}`, width: "100%", role: "img",
    "aria-label": `Timeline: ${counted(sessions.length, "session")} in ${counted(keys.length, "lane")}, ${counted(axis.periods.length, "active period")}`, class: "timeline-svg" });
  const shortWindow = all.length && (Math.max(...all.map((i) => i[1])) - Math.min(...all.map((i) => i[0]))) < 2 * 86400000;
  for (const lane of laneRows) {
    chart.append(svg("rect", { class: "lane", x: labelW, y: lane.y, width: plotW, height: lane.rows * rowH + 4, rx: 3 }));
    chart.append(svg("text", { x: 4, y: lane.y + 15, text: lane.key.length > 30 ? lane.key.slice(0, 29) + "…" : lane.key }));
  }
  // Period starts and breaks over the lanes, under the sessions; inside a wide period (a year
  // of steady work is one) a date every TICK pixels, each the time at its own place.
  // A period of hours is dated to the minute, a longer one to the day.
  const stamp = (t, fine) => new Date(t).toISOString().slice(0, fine ? 16 : 10).replace("T", " ");
  let lastLabel = -Infinity;
  let lastText = "";
  for (const p of axis.periods) {
    const fine = shortWindow || p.hi - p.lo < 2 * 86400000;
    const tick = fine ? 160 : 120;
    // The period's first label names its first event, drawn where that event is (the period's
    // edge is a margin earlier, at p.lo); the dates after it are the times at their own places,
    // none outside the period's events, so that labels increase from left to right.
    const first = axis.x(p.t0);
    if (first - lastLabel >= 70) {
      lastText = stamp(p.t0, fine);
      chart.append(svg("text", { class: "period-label", x: first, y: 14, text: lastText }));
      lastLabel = first;
    }
    chart.append(svg("line", { class: "axis", x1: p.x0, x2: p.x0, y1: 18, y2: height, stroke: "currentColor" }));
    for (let x = first + tick; x <= p.x1 - tick / 2; x += tick) {
      const t = p.lo + ((x - p.x0) / Math.max(p.x1 - p.x0, 1)) * (p.hi - p.lo);
      const text = stamp(t, fine);
      if (t > p.t1 || x - lastLabel < tick * 0.75 || text === lastText) continue;  // a period of a day: one date
      chart.append(svg("text", { class: "period-label", x, y: 14, text }),
        svg("line", { class: "axis tick", x1: x, x2: x, y1: 18, y2: 24, stroke: "currentColor" }));
      lastLabel = x;
      lastText = text;
    }
  }
  for (const b of axis.breaks) {
    chart.append(svg("rect", { class: "break", x: b.x + 4, y: 18, width: b.width - 8, height: height - 18 },
      svg("title", { text: `${span(b.ms)} without activity` })));
    chart.append(svg("text", { class: "break-label", x: b.x + b.width / 2, y: 28, "text-anchor": "middle", text: span(b.ms).replace(" ", "") }));
  }
  for (const lane of laneRows) {
    for (const item of lanes.get(lane.key)) {
      const s = item.s;
      const rowY = lane.y + 2 + item.row * rowH;
      const group = svg("a", { href: sessionHref(s.session_id), class: "session-bar", "data-session-id": s.session_id,
        "aria-label": `session ${short(s.session_id)} in ${lane.key}` });
      group.append(svg("title", { text: `${short(s.session_id)} · ${counted(s.events, "event")} · ${counted(s.commits, "commit")}\n${fmtTime(s.started)} → ${fmtTime(s.ended)}` }));
      group.append(svg("line", { class: "session-span", x1: item.left, x2: item.right, y1: rowY + rowH / 2 - 1, y2: rowY + rowH / 2 - 1 }));
      for (const m of item.marks) {
        group.append(svg("rect", { class: `bar mark${s.provider === "codex" ? " alt" : ""}`, x: m.x0, y: rowY + 2, width: m.w, height: rowH - 6, rx: 2,
          "data-start": new Date(m.a).toISOString(), "data-events": m.n }));
      }
      chart.append(group);
    }
  }
  const table = el("table", { id: "session-table" },
    el("thead", {}, el("tr", {}, ...["Session", "Project", "Agent", "Started", "Ended", "Events", "Commits", "Edits"].map((h) => el("th", { text: h })))),
    el("tbody", {}, ...sessions.map((s) => el("tr", {},
      el("td", {}, el("a", { href: sessionHref(s.session_id), text: short(s.session_id) })),
      el("td", { class: s.project ? null : "muted", text: s.project ? visible(s.project) : NO_PROJECT }), el("td", { text: visible(s.provider || "") }),
      el("td", { text: fmtTime(s.started) }), el("td", { text: fmtTime(s.ended) }),
      el("td", { text: s.events }), el("td", { text: s.commits }), el("td", { text: s.edits })))));
  return [el("div", { class: "chart" }, chart),
    el("p", { class: "muted", text: "Bars are bursts of activity (events less than 30 minutes apart); a line joins one session's bursts. Stretches without activity are folded into the narrow gaps, labelled with their length." }),
    el("h2", { text: "Sessions" }), table];
}
