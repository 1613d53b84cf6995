/*
 * agentmsg's search page. Sphinx writes this file into language_data.js (it is the
 * build's html_search_scorer; docs/agentmsg_docs/search.py). It takes over from
 * searchtools.js the ranking and the listing of results:
 *
 * - a page ranks by how many of the query's words it has, then by where it says them
 *   (the page title, a section heading, the text) and how often, for its length and for
 *   how rare each word is (BM25, with the counts the build adds to searchindex.js);
 * - a word readers type is also looked for as the words the pages use for it (the
 *   language's synonyms, locales/<code>/SYNONYMS.toml);
 * - the result links to the section whose heading says the query, and its summary is
 *   the page's text around the query (not captions of pictures);
 * - the page searches as the reader types, without loading again.
 *
 * When the search is over, #search-results holds one list (ul.search) of every result,
 * and its data-query attribute is the query searched.
 */
"use strict";

var AgentmsgSearch = (() => {
  // A word in the page title, a section heading, a deeper heading (by depth), on top of
  // the text's score (BODY at most 2.2 times a word's rarity).
  const HEADING = [8, 3, 2];
  const BODY = 3;
  // A word in the page's lead (its description: the prose before its first section).
  const LEAD = 1.5;
  // Another form of the query word in the index (Spanish "imagen" is indexed "imag",
  // "imágenes" "imagen"; without a stemmer, "tools" for "tool").
  const SHORTER = 0.8;
  // An indexed word that only starts with (Han: holds) the query word.
  const PARTIAL = 0.4;
  // The query names an object of the API reference (as written: MessageError, to_dict).
  const OBJECT = 12;
  // A word inside a name typed (dict in to_dict), on top of the name's own score.
  const HINT = 0.5;
  // The query is a heading of the page, or most of one.
  const TITLED = 6;
  // BM25's saturation and length normalisation.
  const K1 = 1.2;
  const B = 0.5;
  const HAN = /[\u3400-\u9fff\uf900-\ufaff]/u;
  const SNIPPET = 240;
  // What a summary leaves out: pictures and their labels, the gallery's notes.
  const NOT_TEXT = [
    ".headerlink",
    "script",
    "style",
    "svg",
    "img",
    "[aria-hidden='true']",
    ".sphx-glr-download-link-note",
    ".sphx-glr-footer",
    ".sphx-glr-thumbcontainer .agentmsg-thumb",
  ].join(",");

  // A page title as text (the index keeps its HTML: a span lang="en" while untranslated).
  const plain = (html) => html.replace(/<[^>]*>/g, "").replace(/&amp;/g, "&");
  const fold = (text) => text.normalize("NFD").replace(/\p{Mn}/gu, "").toLowerCase();
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const isStopword = (word) =>
    typeof stopwords.has === "function" ? stopwords.has(word) : stopwords.indexOf(word) !== -1;

  let stemmer = null;
  const stems = new Map();
  const stem = (word) => {
    if (!stems.has(word)) {
      stemmer = stemmer || new Stemmer();
      stems.set(word, stemmer.stemWord(word));
    }
    return stems.get(word);
  };

  /** The words of *text* as the index holds them: lower case, stemmed, no stopwords. */
  const indexWords = (text) =>
    splitQuery(text)
      .map((word) => word.toLowerCase())
      .filter((word) => word && !isStopword(word) && !/^\d+$/.test(word));

  /**
   * The query as units, each a list of alternatives (lists of words, all needed), and
   * the words to show in a summary. A synonym found in the query (whole words, or
   * anywhere in Han text) is one unit: the words typed, or the words the pages use.
   * Also the names typed (case kept), for the API reference's objects; the words inside
   * a name (to_dict: dict; MessageError: message, error); and the name that words typed
   * apart make (system message: systemmessage, as in SystemMessage).
   */
  const parse = (query, synonyms) => {
    let rest = query.trim().toLowerCase();
    const units = [];
    const shown = new Set();
    const typedWords = (phrase) => indexWords(phrase).map((word) => [stem(word), word]);
    for (const typed of Object.keys(synonyms).sort((a, b) => b.length - a.length)) {
      // As written, or without its accents (readers often leave them out).
      const keys = [...new Set([typed, fold(typed)])].map(escape).join("|");
      const pattern = HAN.test(typed)
        ? new RegExp(keys, "gu")
        : new RegExp(`(?<![\\p{L}\\p{N}_])(?:${keys})(?![\\p{L}\\p{N}_])`, "gu");
      if (!pattern.test(rest)) continue;
      rest = rest.replace(pattern, " ");
      const alternatives = [typed, ...synonyms[typed]].map((phrase) => {
        phrase.split(/\s+/).forEach((word) => shown.add(word));
        return typedWords(phrase).flatMap(([stemmed]) => [stemmed]);
      });
      units.push(alternatives.filter((words) => words.length));
    }
    const apart = typedWords(rest);
    for (const [stemmed, word] of apart) {
      shown.add(word);
      const unit = stemmed === word ? [[word]] : [[stemmed], [word]];
      // A name the index may hold in parts (a language that splits to_dict apart).
      if (/[_.]/.test(word)) unit.parts = typedWords(word.replace(/[_.]+/g, " ")).map(([s]) => s);
      units.push(unit);
    }
    const names = splitQuery(query.trim()).filter((word) => !HAN.test(word));
    const hints = names
      .filter((name) => /[_.]|\p{Ll}\p{Lu}/u.test(name))
      .flatMap((name) =>
        typedWords(name.replace(/[_.]+/g, " ").replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")),
      )
      .map(([stemmed]) => stemmed);
    const joined =
      apart.length > 1 && apart.length === units.length
        ? apart.map(([, word]) => word).join("")
        : null;
    return {
      units: units.filter((unit) => unit.length),
      shown: [...shown],
      names,
      hints,
      joined,
    };
  };

  const docs = (entry) => (entry === undefined ? [] : Array.isArray(entry) ? entry : [entry]);

  let sections = null;
  /** Each page's sections: heading, id and the heading's words. */
  const pageSections = (index) => {
    if (sections === null) {
      sections = index.docnames.map(() => []);
      for (const [title, found] of Object.entries(index.alltitles)) {
        const words = new Set(indexWords(title).flatMap((word) => [stem(word), word]));
        for (const [doc, id] of found) sections[doc].push({ title, id, words });
      }
    }
    return sections;
  };

  let latin = null;
  /** The index's words in Latin script (and digits). */
  const latinTerms = (index) => {
    if (latin === null) {
      latin = [...new Set([...Object.keys(index.terms), ...Object.keys(index.titleterms)])];
      latin = latin.filter((term) => !HAN.test(term));
    }
    return latin;
  };

  /** How well each page says *word*: a map of page to score. */
  const wordScores = (index, extra, word, average) => {
    const count = index.docnames.length;
    const scores = new Map();
    const add = (doc, score) => scores.set(doc, Math.max(scores.get(doc) || 0, score));
    const look = (term, weight) => {
      const inText = docs(index.terms[term]);
      const inTitles = docs(index.titleterms[term]);
      const frequency = new Set([...inText, ...inTitles]).size;
      const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
      const body = (doc, tf) => {
        const length = (extra.lengths || [])[doc] || average;
        const norm = 1 - B + (B * length) / average;
        return BODY * idf * ((tf * (K1 + 1)) / (tf + K1 * norm));
      };
      const counts = (extra.counts || {})[term];
      const leads = (extra.leads || {})[term];
      inText.forEach((doc, at) => {
        const lead = leads && leads[at] ? idf * LEAD : 0;
        add(doc, weight * (body(doc, counts ? counts[at] : 1) + lead));
      });
      const titleCounts = (extra.titlecounts || {})[term];
      const depths = (extra.depths || {})[term];
      inTitles.forEach((doc, at) => {
        const heading = HEADING[Math.min(depths ? depths[at] : 2, HEADING.length) - 1];
        add(doc, weight * (body(doc, titleCounts ? titleCounts[at] : 1) + idf * heading));
      });
    };
    const has = (term) =>
      Object.hasOwn(index.terms, term) || Object.hasOwn(index.titleterms, term);
    if (HAN.test(word) && word.length > 2) {
      // A page titled with a word inside the query's (工具 in 工具调用), in part.
      for (const [term, entry] of Object.entries(index.titleterms)) {
        if (term.length < 2 || term === word || !word.includes(term)) continue;
        const depths = (extra.depths || {})[term];
        const frequency = docs(entry).length;
        const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
        docs(entry).forEach((doc, at) => {
          if (!depths || depths[at] !== 1) return;
          // As much as the word is of the query's and of the title (工具 is all of 工具).
          const title = plain(index.titles[doc]).length || term.length;
          add(doc, (idf * HEADING[0] * term.length ** 2) / (word.length * title));
        });
      }
    }
    if (!HAN.test(word) && word.length > 2) {
      // Other forms of the same word, a letter or two shorter or longer: another stem
      // (Spanish imagen, imag), or a plural where the language has no stemmer.
      for (const term of latinTerms(index)) {
        const near = term.length >= 4 && Math.abs(term.length - word.length) <= 2;
        if (near && term !== word && (word.startsWith(term) || term.startsWith(word))) {
          look(term, SHORTER);
        }
      }
    }
    if (has(word)) look(word, 1);
    else if (word.length > 1) {
      const inside = HAN.test(word);
      const partial = (term) => (inside ? term.includes(word) : term.startsWith(word));
      const terms = new Set(
        [...Object.keys(index.terms), ...Object.keys(index.titleterms)].filter(partial),
      );
      terms.forEach((term) => look(term, PARTIAL));
    }
    return scores;
  };

  /** The objects of the API reference that *name* names (as written): page, anchor. */
  const objectsNamed = (index, name) => {
    const found = [];
    for (const [prefix, entries] of Object.entries(index.objects || {})) {
      for (const [doc, type, _priority, anchor, last] of entries) {
        const full = prefix ? `${prefix}.${last}` : last;
        if (full !== name && last !== name && !full.endsWith(`.${name}`)) continue;
        const id =
          anchor === "" ? full : anchor === "-" ? `${index.objnames[type][1]}-${full}` : anchor;
        found.push({ doc, id, full });
      }
    }
    return found;
  };

  /**
   * The pages for *query*, best first: each with its docname, title, anchor (the
   * section or object to link to), how many of the query's units it has, and its score.
   */
  const rank = (query) => {
    const index = Search._index;
    const extra = index.agentmsg || {};
    const { units, shown, names, hints, joined } = parse(query, extra.synonyms || {});
    const lengths = extra.lengths || [];
    const average = lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length : 1;
    const coverage = new Map();
    const total = new Map();
    const anchors = new Map();
    const queryWords = new Set();
    const addTo = (map, doc, value) => map.set(doc, (map.get(doc) || 0) + value);
    const covers = (doc) => coverage.set(doc, Math.max(coverage.get(doc) || 0, units.length));
    const known = (word) => Object.hasOwn(index.terms, word) || Object.hasOwn(index.titleterms, word);
    for (const found of units) {
      const best = new Map();
      const whole = found.some((words) => words.every(known));
      const unit = !whole && found.parts && found.parts.length ? [found.parts] : found;
      for (const words of unit) {
        words.forEach((word) => queryWords.add(word));
        const perWord = words.map((word) => wordScores(index, extra, word, average));
        for (const doc of perWord[0].keys()) {
          if (!perWord.every((scores) => scores.has(doc))) continue;
          const score = perWord.reduce((sum, scores) => sum + scores.get(doc), 0);
          best.set(doc, Math.max(best.get(doc) || 0, score));
        }
      }
      for (const [doc, score] of best) {
        addTo(coverage, doc, 1);
        addTo(total, doc, score);
      }
    }
    for (const name of names) {
      for (const { doc, id } of objectsNamed(index, name)) {
        if (anchors.has(doc)) continue;
        anchors.set(doc, { id, title: null });
        addTo(total, doc, OBJECT);
        covers(doc);
      }
    }
    for (const word of hints) {
      for (const [doc, score] of wordScores(index, extra, word, average)) {
        if (total.has(doc)) addTo(total, doc, HINT * score);
      }
    }
    // A heading that is the query, or that the query is most of (Sphinx's title match).
    const typed = query.trim().toLowerCase();
    for (const [title, found] of Object.entries(index.alltitles)) {
      const heading = title.toLowerCase().trim();
      if (!typed || !heading.includes(typed) || typed.length < heading.length / 2) continue;
      for (const [doc, id] of found) {
        addTo(total, doc, (TITLED * typed.length) / heading.length);
        covers(doc);
        if (!anchors.has(doc) && title !== plain(index.titles[doc])) anchors.set(doc, { id, title });
      }
    }
    const name = [joined && stem(joined), joined].find((word) => word && known(word));
    if (name) {
      for (const [doc, score] of wordScores(index, extra, name, average)) {
        addTo(total, doc, score);
        covers(doc);
      }
    }
    // The section whose heading says the most query words, if not the page title.
    const all = pageSections(index);
    const results = [];
    for (const [doc, score] of total) {
      const title = index.titles[doc];
      if (!title) continue; // the 404 page
      let anchor = anchors.get(doc) || null;
      if (anchor === null) {
        let most = 0;
        for (const section of all[doc]) {
          const said = [...queryWords].filter((word) => section.words.has(word)).length;
          if (said > most) {
            most = said;
            anchor = section.title === plain(title) ? null : { id: section.id, title: section.title };
          }
        }
      }
      results.push({
        doc,
        docname: index.docnames[doc],
        title,
        anchor,
        covered: coverage.get(doc),
        score,
      });
    }
    results.sort((a, b) => b.covered - a.covered || b.score - a.score || a.docname.localeCompare(b.docname));
    return { results, shown };
  };

  const pages = new Map();
  const fetchPage = (url) => {
    if (!pages.has(url)) pages.set(url, fetch(url).then((response) => response.text()));
    return pages.get(url);
  };

  /** A summary of the page's text (of the section *id*, if any) around a shown word. */
  const summary = (html, id, shown) => {
    const page = new DOMParser().parseFromString(html, "text/html");
    const main = page.querySelector('[role="main"]');
    if (main === null) return "";
    main.querySelectorAll(NOT_TEXT).forEach((element) => element.remove());
    const part = (id && main.querySelector(`[id="${CSS.escape(id)}"]`)) || main;
    const text = part.textContent.replace(/\s+/g, " ").trim();
    const folded = fold(text);
    const positions = shown
      .map((word) => folded.indexOf(fold(word)))
      .filter((position) => position > -1);
    const at = positions.length ? Math.min(...positions) : 0;
    const start = Math.max(at - SNIPPET / 3, 0);
    const head = start > 0 ? "…" : "";
    const tail = start + SNIPPET < text.length ? "…" : "";
    return head + text.substr(start, SNIPPET).trim() + tail;
  };

  let generation = 0;

  const output = () => document.getElementById("search-results");

  /** Empty the results and start a search for *query* (when the index has loaded). */
  const start = (query) => {
    generation += 1;
    const out = output();
    if (out === null) return;
    out.replaceChildren();
    delete out.dataset.query;
    const heading = out.appendChild(document.createElement("h2"));
    heading.textContent = Documentation.gettext("Searching");
    const status = out.appendChild(document.createElement("p"));
    status.classList.add("search-summary");
    const list = out.appendChild(document.createElement("ul"));
    list.setAttribute("role", "list");
    list.classList.add("search");
    if (!query.trim()) {
      heading.remove();
      out.dataset.query = query;
      return;
    }
    if (Search.hasIndex()) Search.query(query);
    else Search.deferQuery(query);
  };

  /** Rank and list the pages for *query*; the summaries follow as pages arrive. */
  const query = (query) => {
    const out = output();
    if (out === null) return;
    const mine = generation;
    const { results, shown } = rank(query);
    const list = out.querySelector("ul.search");
    const root = document.documentElement.dataset.content_root || "";
    const options = DOCUMENTATION_OPTIONS;
    for (const result of results) {
      const item = list.appendChild(document.createElement("li"));
      item.classList.add(result.anchor ? "kind-title" : "kind-text");
      const link = item.appendChild(document.createElement("a"));
      const hash = result.anchor ? `#${result.anchor.id}` : "";
      link.href = result.docname + options.LINK_SUFFIX + hash;
      link.dataset.score = result.score.toFixed(2);
      link.innerHTML = result.title;
      if (result.anchor && result.anchor.title) {
        link.append(` > ${result.anchor.title}`);
      }
      if (options.SHOW_SEARCH_SUMMARY !== false) {
        fetchPage(root + result.docname + options.FILE_SUFFIX)
          .then((html) => {
            if (mine !== generation) return;
            const context = item.appendChild(document.createElement("p"));
            context.classList.add("context");
            context.textContent = summary(html, result.anchor && result.anchor.id, shown);
          })
          .catch(() => {});
      }
    }
    if (typeof SPHINX_HIGHLIGHT_ENABLED !== "undefined" && SPHINX_HIGHLIGHT_ENABLED) {
      localStorage.setItem("sphinx_highlight_terms", shown.join(" "));
    }
    out.querySelector("h2").textContent = Documentation.gettext("Search Results");
    out.querySelector(".search-summary").innerText = results.length
      ? Documentation.ngettext(
          "Search finished, found one page matching the search query.",
          "Search finished, found ${resultCount} pages matching the search query.",
          results.length,
        ).replace("${resultCount}", results.length)
      : Documentation.gettext(
          "Your search did not match any documents. Please make sure that all words are spelled correctly and that you've selected enough categories.",
        );
    out.dataset.query = query;
  };

  /** Search again as the reader types in a search box of the page. */
  const live = () => {
    if (output() === null) return;
    document.querySelectorAll('input[name="q"]').forEach((input) => {
      input.addEventListener("input", () => {
        const url = new URL(window.location.href);
        url.searchParams.set("q", input.value);
        window.history.replaceState(null, "", url);
        start(input.value);
      });
    });
  };

  const install = () => {
    Search.performSearch = start;
    Search.query = query;
    live();
  };
  // furo loads searchtools.js before language_data.js, Sphinx's basic theme after it.
  if (typeof Search !== "undefined") install();
  else document.addEventListener("DOMContentLoaded", install);

  return { rank, parse, summary };
})();
