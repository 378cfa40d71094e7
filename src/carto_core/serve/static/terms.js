// Autocomplete and co-terms from the keyword index: the search box suggests indexed terms for
// the word being typed (a <datalist>), and the results are followed by the terms that occur
// with the query's words (chips that add the term to the query).

import { api, el, query, rec, counted } from "./dom.js";

export function attachAutocomplete(input) {
  const list = el("datalist", { id: "q-terms" });
  input.setAttribute("list", "q-terms");
  let timer = null;
  let asked = "";
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const text = input.value;
      const match = /(\S+)$/.exec(text);
      if (match && match[1] === asked) return;
      // A word too short to ask (or none): the suggestions of the word before it go.
      if (!match || match[1].length < 2) { asked = ""; list.replaceChildren(); return; }
      asked = match[1];
      const head = text.slice(0, match.index);
      try {
        const data = await api(`/api/terms/complete?${query({ prefix: asked, limit: 8 })}`);
        if (input.value !== text) return; // typed on meanwhile
        // the word people write for the term ("discountCode", not the stem "discountcod")
        list.replaceChildren(...data.terms.map((t) => el("option", { value: `${head}${t.word || t.term}`, label: counted(t.df, "document") })));
        list.dataset.prefix = asked;
      } catch {
        // No suggestions for this word (nothing of it folds to an index term): none shown.
        if (input.value === text) list.replaceChildren();
      }
    }, 120);
  });
  return list;
}

export async function coTerms(q, go) {
  // The query's longest word, without the quotes, brackets or dashes typed around it.
  const word = q.split(/\s+/).filter((w) => !w.endsWith("*")).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => w.length > 1).sort((a, b) => b.length - a.length)[0];
  const box = el("p", { class: "co-terms", id: "co-terms" });
  if (!word) return box;
  try {
    const data = await api(`/api/terms/co?${query({ term: word, limit: 10 })}`);
    if (!data.co_terms.length) return box;
    box.append(el("span", { class: "muted" }, "Often with “", rec(word), `” (${counted(data.documents, "document")}): `),
      ...data.co_terms.map((t) => el("button", { type: "button", class: "chip", title: `together ${t.together} · in ${counted(t.df, "document")}`,
        onclick: () => go(`${q} ${t.word || t.term}`), text: t.word || t.term })));
  } catch { /* the results stand without */ }
  return box;
}
