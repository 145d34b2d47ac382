// Sections a phone folds (issue #25 item 16): on the live board, the other
// players' boards and the bag and lid (the bag and tower in Summer Pavilion),
// each a <details data-fold="..."> the server draws open, so a wide screen and
// a page without JavaScript show them all. On a narrow screen (the phone
// breakpoint of site.css) this script folds each until the player opens it.
// A section the player opened or folded stays as they left it when the board
// is drawn again: a live refresh or a move swaps #board whole (htmx), and
// live.js redraws the page when a waiting game starts ("live:redrawn").
(function () {
  "use strict";

  var NARROW = "(max-width: 37.5rem)";
  var chosen = {}; // data-fold -> open, as the player left it on this page

  function narrow() {
    return Boolean(window.matchMedia && window.matchMedia(NARROW).matches);
  }

  function apply() {
    var fold = narrow();
    document.querySelectorAll("details[data-fold]").forEach(function (section) {
      var key = section.dataset.fold;
      var open = Object.prototype.hasOwnProperty.call(chosen, key) ? chosen[key] : !fold;
      if (section.open !== open) section.open = open;
    });
  }

  // The player's own tap (or Enter/Space on the summary, which clicks it):
  // the section is about to change to the other state.
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("summary");
    var section = summary && summary.parentElement;
    if (!section || !section.matches("details[data-fold]")) return;
    if (summary !== section.querySelector(":scope > summary")) return;
    chosen[section.dataset.fold] = !section.open;
  });

  document.addEventListener("DOMContentLoaded", apply);
  document.addEventListener("htmx:afterSwap", apply);
  document.addEventListener("live:redrawn", apply);
})();
