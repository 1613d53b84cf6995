// agentmsg documentation: a code block wider than its box, or a captured output taller
// than sphinx-gallery's maximum height, scrolls; tabindex="0" lets a keyboard focus it
// and scroll it with the arrow keys.
(function () {
  "use strict";
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
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markScrollable);
  } else {
    markScrollable();
  }
  window.addEventListener("resize", markScrollable);
})();
