// The Summer Pavilion board's small script (the page works without it: every
// choice is a link or a GET form, templates/games/pavilion/_live.html).
//
// A choice on the board (a colour to take, a space, a tile to keep or to take as
// a bonus) is an hx-get that redraws the board. After the redraw the page stays
// where it was (board.js moves the focus to the status line, which may scroll the
// page up) and the keyboard focus goes on: to the stepper just clicked (by its
// id), else (it is used up) to the panel's button that plays the decision.
//
// The board partial brings this script along on every swap: it sets itself up once.
(function () {
  "use strict";
  if (window.pavilionBoard) return;
  window.pavilionBoard = true;

  var pending = null;

  function focusable(element) {
    return element && element.matches("a[href], button:not([disabled])");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail.elt;
    var config = event.detail.requestConfig || {};
    pending = null;
    if (!source || !source.closest || !source.closest("#board .pv-live")) return;
    if (String(config.verb || "").toLowerCase() !== "get") return;
    pending = { x: window.scrollX, y: window.scrollY, id: source.matches(".pv-step") ? source.id : "" };
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var board = document.getElementById("board");
    // The board's own swap, not a line that came with it out of band (the
    // players line, games/views.py).
    if (!board || event.target !== board && !board.contains(event.target)) return;
    var choice = pending;
    pending = null;
    if (!choice || board.querySelector(".error")) return;
    var clicked = choice.id ? document.getElementById(choice.id) : null;
    var target = focusable(clicked) ? clicked : board.querySelector(".pv-panel .pv-primary:not([disabled])");
    if (!target && clicked && clicked.closest(".pv-stepper")) {
      target = clicked.closest(".pv-stepper").querySelector("a.pv-step");
    }
    window.scrollTo(choice.x, choice.y);
    if (target) target.focus({ preventScroll: true });
  });
})();
