// Tag facets (the tags of `carto sessions --tag`: provider:, tool:, ext:, outcome:, topic:):
// one box per kind, each tag a toggle with its count; the chosen tags are an AND filter kept
// in the page's address (`tag=tool:bash,ext:py`).

import { el, counted, visible } from "./dom.js";

const KIND_TITLES = { provider: "Agents", tool: "Tools", ext: "File types", outcome: "Outcomes", topic: "Topics" };

export const parseTags = (value) => (value || "").split(",").map((t) => t.trim()).filter(Boolean);

export function toggled(chosen, tag) {
  return chosen.includes(tag) ? chosen.filter((t) => t !== tag) : [...chosen, tag];
}

// `facets`: the API's `tag_facets` ({tags: {kind: {tag: n}}, sessions, topics_over, chosen});
// `onpick(nextTags)` navigates; `onTopics()`, when given, asks for the topic facets (an index
// lookup per session: not computed unless asked).
export function tagFacets(id, facets, chosen, onpick, onTopics) {
  const box = el("section", { id, class: "tag-facets", "aria-label": "Tags" });
  if (chosen.length) {
    box.append(el("p", { class: "chosen-tags" }, "Tags: ", ...chosen.map((tag) =>
      el("button", { type: "button", class: "badge chosen-tag", "data-tag": tag, title: "remove this tag", onclick: () => onpick(toggled(chosen, tag)), text: `${tag} ×` }))));
  }
  const kinds = Object.entries((facets && facets.tags) || {});
  for (const [kind, values] of kinds) {
    box.append(el("div", { class: "tag-kind facets", "data-kind": kind }, el("h3", { text: KIND_TITLES[kind] || kind }), el("ul", {}, ...Object.entries(values).map(([tag, n]) =>
      el("li", {}, el("button", { type: "button", class: "tag-facet", "data-tag": tag, "aria-pressed": String(chosen.includes(tag)), onclick: () => onpick(toggled(chosen, tag)) },
        visible(tag.slice(kind.length + 1)), el("span", { class: "facet-count", text: n })))))));
  }
  if (facets && facets.sessions > facets.topics_over && facets.topics_over) {
    box.append(el("p", { class: "muted", text: `topics of the first ${facets.topics_over} of ${counted(facets.sessions, "session")}` }));
  }
  if (onTopics && facets && facets.sessions && !facets.topics_over) {
    box.append(el("p", {}, el("button", { type: "button", class: "show-topics", onclick: onTopics, text: "show topics" }), el("span", { class: "muted", text: " (slower: each session's characteristic terms)" })));
  }
  if (!kinds.length && !chosen.length) box.append(el("p", { class: "muted", text: "No tags." }));
  return box;
}
