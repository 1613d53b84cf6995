// agentmsg's query splitter for the Chinese search page (agentmsg_docs/search.py puts it
// into language_data.js, which Sphinx loads after searchtools.js, so it replaces the
// default). Chinese has no spaces between words: the index holds the words jieba cut the
// pages into, so a query's Chinese is cut into the longest words that the index holds.
var splitQuery = (function () {
  "use strict";

  // Sphinx's own splitting (searchtools.js): at anything but letters, digits, _ and emoji.
  var SEPARATORS = /[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/u;
  var HAN_RUNS = /(\p{Script=Han}+)/u;
  var HAN = /\p{Script=Han}/u;

  var words = null; // the index's words, read once the index has loaded
  var longest = 0; // the length of its longest Chinese word, in characters
  var wordsOf = null;

  function known() {
    var index = typeof Search === "undefined" ? null : Search._index;
    if (!index) return null;
    if (wordsOf !== index) {
      words = new Set(Object.keys(index.terms).concat(Object.keys(index.titleterms)));
      longest = 0;
      words.forEach(function (word) {
        if (HAN.test(word)) longest = Math.max(longest, Array.from(word).length);
      });
      wordsOf = index;
    }
    return words;
  }

  // Longest match, left to right. Characters that start no word of the index stay
  // together as one word (a word no page has, which finds nothing, as in any language);
  // a lone one is dropped, as the index drops every word of one character.
  function cut(run, words) {
    var chars = Array.from(run);
    var found = [];
    var unknown = "";
    var flush = function () {
      if (Array.from(unknown).length > 1) found.push(unknown);
      unknown = "";
    };
    var at = 0;
    while (at < chars.length) {
      var size = Math.min(longest, chars.length - at);
      while (size > 1 && !words.has(chars.slice(at, at + size).join(""))) size--;
      if (size > 1) {
        flush();
        found.push(chars.slice(at, at + size).join(""));
        at += size;
      } else {
        unknown += chars[at];
        at += 1;
      }
    }
    flush();
    return found;
  }

  return function (query) {
    var index = known();
    var terms = [];
    query.split(SEPARATORS).forEach(function (part) {
      if (!part) return;
      if (!index || !HAN.test(part)) {
        terms.push(part);
        return;
      }
      part.split(HAN_RUNS).forEach(function (piece) {
        if (!piece) return;
        if (HAN.test(piece)) terms.push.apply(terms, cut(piece, index));
        else terms.push(piece);
      });
    });
    return terms;
  };
})();
