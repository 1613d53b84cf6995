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

  function ready() {
    markScrollable();
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
