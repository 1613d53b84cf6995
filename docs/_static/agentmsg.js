// agentmsg documentation: small behaviours on top of furo.
(function () {
  "use strict";

  // A code block wider than its box, or a captured output taller than sphinx-gallery's
  // maximum height, scrolls; tabindex="0" lets a keyboard focus it and scroll it.
  function markScrollable() {
    var blocks = document.querySelectorAll("div.highlight > pre");
    for (var i = 0; i < blocks.length; i++) {
      var pre = blocks[i];
      if (pre.scrollWidth > pre.clientWidth || pre.scrollHeight > pre.clientHeight) {
        pre.setAttribute("tabindex", "0");
      } else if (pre.getAttribute("tabindex") === "0") {
        pre.removeAttribute("tabindex");
      }
    }
  }

  // The language links go to the same page in another language (plain links that work
  // without scripts). Followed here, they also keep the reader's place: the #section
  // (ids are the same in every language) and, on the search page, the query; and the
  // choice is remembered, so the site's root page opens that language next time.
  function keepPlace(event) {
    var link = event.currentTarget;
    var code = link.getAttribute("data-agentmsg-language");
    try { window.localStorage.setItem("agentmsg-language", code); } catch (e) {}
    var target = new URL(link.getAttribute("href"), window.location.href);
    if (document.querySelector("#search-results, form.search") && window.location.search) {
      target.search = window.location.search;
    }
    target.hash = window.location.hash;
    link.href = target.href;
  }

  // A search result's summary is the page's text near the words found. On a tutorial
  // page that text opens with sphinx-gallery's "Go to the end to download" note, which
  // then fills every summary; the note is left out of the text the summary comes from.
  var NOT_SUMMARIZED = ".sphx-glr-download-link-note";

  function summarizeWithoutNotes() {
    if (typeof Search === "undefined" || typeof Search.htmlToText !== "function") {
      return;
    }
    var toText = Search.htmlToText;
    Search.htmlToText = function (htmlString, anchor) {
      var page = new DOMParser().parseFromString(htmlString, "text/html");
      page.querySelectorAll(NOT_SUMMARIZED).forEach(function (note) { note.remove(); });
      return toText(page.documentElement.outerHTML, anchor);
    };
  }

  function ready() {
    markScrollable();
    summarizeWithoutNotes();
    var links = document.querySelectorAll(".agentmsg-languages a[data-agentmsg-language]");
    for (var i = 0; i < links.length; i++) {
      links[i].addEventListener("click", keepPlace);
      links[i].addEventListener("auxclick", keepPlace);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
  window.addEventListener("resize", markScrollable);
})();
