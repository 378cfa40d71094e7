// Activity: census (bar charts by project, type, agent, log) and tempo (events per day).

import { NO_PROJECT, api, choice, el, failure, fmtTime, show, svg, teamNote, teamOn, visible, counted } from "./dom.js";

export async function viewActivity(params) {
  const since = params.get("since") || "";
  const select = choice("activity-since", "Window", (v) => `since ${v}`,
    [["", "all time"], ["7d", "last 7 days"], ["30d", "last 30 days"], ["90d", "last 90 days"]], since,
    (value) => { location.hash = `#/activity${value ? "?since=" + encodeURIComponent(value) : ""}`; });
  const census = el("section", { id: "census", "aria-label": "Census" }, el("p", { class: "muted", text: "Loading census…" }));
  const tempo = el("section", { id: "tempo", "aria-label": "Tempo" }, el("p", { class: "muted", text: "Loading tempo…" }));
  show(el("h1", { text: "Activity" }), el("p", {}, "Census and tempo of the record: ", select), census, tempo);
  const scope = since ? { since } : {};
  if (teamOn()) scope.team = true;
  const callId = `explorer-${Date.now()}`;
  const [censusAnswer, tempoAnswer] = await Promise.allSettled([
    api("/api/facts", { contract_version: 1, call_id: callId, verb: "census", top: 12, sample: 1, ...scope }),
    api("/api/facts", { contract_version: 1, call_id: callId, verb: "tempo", top: 8, ...scope })]);
  if (censusAnswer.status === "fulfilled") {
    census.replaceChildren(...[teamNote(censusAnswer.value.team), ...renderCensus(censusAnswer.value.facts)].filter(Boolean));
  } else census.replaceChildren(failure(censusAnswer.reason));
  if (tempoAnswer.status === "fulfilled") tempo.replaceChildren(...renderTempo(tempoAnswer.value.facts));
  // One refusal of the window (both asked with it) is said once.
  else if (censusAnswer.status === "rejected" && censusAnswer.reason.message === tempoAnswer.reason.message) tempo.replaceChildren();
  else tempo.replaceChildren(failure(tempoAnswer.reason));
}

// The census counts events without a project apart (`unattributed.project`, never a bucket):
// By project draws them as a bar of their own, so its bars add up to the events counted.
export function withNoProject(buckets, unattributed) {
  if (!unattributed) return buckets;
  return [...buckets, { name: NO_PROJECT, count: unattributed, none: true }].sort((a, b) => b.count - a.count);
}

function barChart(title, buckets, id) {
  const rows = buckets.slice(0, 12);
  const max = Math.max(1, ...rows.map((b) => b.count));
  const labelW = 120, plotW = 170, rowH = 20;
  const chart = svg("svg", { viewBox: `0 0 ${labelW + plotW + 60} ${rows.length * rowH + 8}`, width: "100%", role: "img", "aria-label": `${title}: ${rows.map((b) => `${visible(b.name)} ${b.count}`).join(", ")}`, id });
  rows.forEach((bucket, i) => {
    const b = { ...bucket, name: visible(bucket.name) };
    const y = 4 + i * rowH;
    chart.append(svg("text", { x: labelW - 6, y: y + 13, "text-anchor": "end", class: bucket.none ? "none" : null, text: b.name.length > 22 ? b.name.slice(0, 21) + "…" : b.name }));
    chart.append(svg("rect", { class: `bar${i % 2 ? " alt" : ""}`, x: labelW, y: y + 2, width: Math.max(2, (b.count / max) * plotW), height: rowH - 6, rx: 2 },
      svg("title", { text: `${b.name}: ${b.count}` })));
    chart.append(svg("text", { x: labelW + (b.count / max) * plotW + 6, y: y + 13, text: b.count }));
  });
  return el("figure", { class: "chart" }, el("figcaption", { text: title }), chart);
}

function renderCensus(facts) {
  const out = [el("h2", { text: `Census · ${counted(facts.events, "event")}` }),
    el("p", { class: "muted", text: [facts.span && facts.span.oldest ? fmtTime(facts.span.oldest) + " → " + fmtTime(facts.span.newest) : "",
      facts.sessions ? counted(facts.sessions.resolved, "session") : "? sessions"].filter(Boolean).join(" · ") })];
  const charts = el("div", { class: "charts" });
  for (const [title, key] of [["By project", "by_project"], ["By type", "by_type"], ["By agent", "by_provider"], ["By log", "by_source"]]) {
    const buckets = key === "by_project" ? withNoProject(facts[key] || [], facts.unattributed && facts.unattributed.project) : facts[key];
    if (Array.isArray(buckets) && buckets.length) charts.append(barChart(title, buckets, `census-${key}`));
  }
  out.push(charts);
  return out;
}

//: A series longer than this many days is drawn by week, so that bars stay readable.
const DAILY_MAX = 62;
//: The longest series the facts engine returns (`facts.tempo.MAX_DAYS`): a longer window is cut
//: to its last days, which the page must say, since the census beside it counts them all.
const TEMPO_MAX_DAYS = 366;
const BAR_MAX = 22;

// The whole series the API gave (up to 366 days), by day or, when long, by week ending on the
// series' last day: every event the caption counts is in a bar.
export function tempoBuckets(days) {
  if (days.length <= DAILY_MAX) return days.map((d) => ({ label: d.day, count: d.count, complete: d.complete }));
  const out = [];
  for (let end = days.length; end > 0; end -= 7) {
    const week = days.slice(Math.max(0, end - 7), end);
    out.unshift({ label: `week of ${week[0].day}`, count: week.reduce((a, d) => a + d.count, 0),
      complete: week.every((d) => d.complete) });
  }
  return out;
}

function zText(p) {
  if (p.z_status === "ok") return `z ${p.z > 0 ? "+" : ""}${p.z} (${p.scored_day}: ${p.scored_count} vs mean ${p.baseline_mean} over ${p.baseline_days} d)`;
  if (p.z_status === "insufficient_history") return `not scored: ${p.baseline_days} complete day${p.baseline_days === 1 ? "" : "s"} of history (3 needed)`;
  if (p.z_status === "zero_variance") return `not scored: a flat baseline (mean ${p.baseline_mean})`;
  return (p.z_status || "").replace(/_/g, " ");
}

function renderTempo(facts) {
  const series = facts.projects || [];
  const out = [el("h2", { text: "Tempo · events per day" })];
  if (!series.length) { out.push(el("p", { class: "muted", text: "No dated, project-attributed events." })); return out; }
  const cut = series.find((p) => (p.days || []).length >= TEMPO_MAX_DAYS);
  if (cut) {
    out.push(el("p", { class: "muted", id: "tempo-cut",
      text: `Tempo draws at most ${TEMPO_MAX_DAYS} days (${cut.days[0].day} → ${cut.days[cut.days.length - 1].day}); the census above counts the whole window.` }));
  }
  const charts = el("div", { class: "charts" });
  for (const p of series) {
    if (!p.total && cut && (p.days || []).length >= TEMPO_MAX_DAYS) {
      charts.append(el("figure", { class: "chart" }, el("figcaption", {}, el("strong", { text: visible(p.project) }),
        ` · no event in the ${TEMPO_MAX_DAYS} days drawn (the census counts its older ones)`)));
      continue;
    }
    const buckets = tempoBuckets(p.days || []);
    const max = Math.max(1, ...buckets.map((d) => d.count));
    const w = 360, h = 90, left = 5, room = w - 10;
    const step = room / Math.max(buckets.length, 1);
    const barW = Math.max(1, Math.min(BAR_MAX, step - 2));
    // Few buckets: drawn from the right edge (today), not stretched across the chart.
    const start = left + room - step * buckets.length;
    const drawn = buckets.reduce((a, d) => a + d.count, 0);
    const chart = svg("svg", { viewBox: `0 0 ${w} ${h + 16}`, width: "100%", role: "img", class: "tempo-chart",
      "data-total": drawn, "aria-label": `${visible(p.project)}: ${buckets.map((d) => `${d.label} ${d.count}`).join(", ")}` });
    chart.append(svg("text", { class: "muted-text", x: left, y: 10, text: `max ${max}` }));
    buckets.forEach((d, i) => {
      const bh = d.count ? Math.max(2, (d.count / max) * (h - 14)) : 0;
      const x = start + i * step + (step - barW) / 2;
      chart.append(svg("rect", { class: `bar${d.complete ? "" : " partial"}`, x, y: h - bh, width: barW, height: bh, "data-count": d.count },
        svg("title", { text: `${d.label}: ${d.count}${d.complete ? "" : " (includes today: not scored)"}` })));
    });
    chart.append(svg("line", { class: "axis", x1: 0, x2: w, y1: h + 0.5, y2: h + 0.5, stroke: "currentColor" }));
    if (buckets.length) {
      chart.append(svg("text", { x: Math.max(left, start), y: h + 13, text: buckets[0].label.replace("week of ", "") }));
      if (buckets.length > 1) chart.append(svg("text", { x: w - 5, y: h + 13, "text-anchor": "end", text: buckets[buckets.length - 1].label.replace("week of ", "") }));
    }
    const by = buckets.length < (p.days || []).length ? " · by week" : "";
    charts.append(el("figure", { class: "chart" },
      el("figcaption", {}, el("strong", { text: visible(p.project) }), ` · ${counted(p.total, "event")} over ${counted((p.days || []).length, "day")}${by}`,
        el("div", { class: "muted z", text: zText(p) })), chart));
  }
  out.push(charts);
  return out;
}
