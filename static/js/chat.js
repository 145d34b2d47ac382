// The game page's chat panel (templates/chat/_chat.html). When the player's
// socket says the game's chat changed (static/js/live.js: "live:chat"), the
// panel is fetched again and swapped in, keeping what the player is typing and
// where the cursor is. After the player's own message the box is empty again
// and keeps the focus. The replay's panel (data-readonly) is drawn once.
(function () {
  "use strict";

  var busy = false;
  var again = false;
  var sent = null; // the text of the player's own message on its way

  function panel() { return document.getElementById("chat"); }

  function refetch() {
    var current = panel();
    if (!current || current.dataset.readonly || !window.htmx) return;
    if (busy) { again = true; return; }
    busy = true;
    again = false;
    var box = document.getElementById("chat-text");
    var draft = box ? box.value : "";
    var focused = box && document.activeElement === box;
    var done = function () {
      var fresh = document.getElementById("chat-text");
      // Not the message just sent: a ring for it may come before its answer.
      if (fresh && draft && draft !== sent) fresh.value = draft;
      if (fresh && focused) fresh.focus();
      busy = false;
      if (again) refetch();
    };
    htmx.ajax("GET", current.dataset.url, { source: current, target: current, swap: "outerHTML" })
      .then(done, done);
  }

  document.addEventListener("live:chat", function (event) {
    var current = panel();
    var game = event.detail && event.detail.game;
    if (!current || (game !== null && String(game) !== current.dataset.game)) return;
    refetch();
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.classList && elt.classList.contains("chat-write")) {
      var box = document.getElementById("chat-text");
      sent = box ? box.value : null;
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var elt = event.detail && event.detail.requestConfig && event.detail.requestConfig.elt;
    if (elt && elt.classList && elt.classList.contains("chat-write")) {
      var box = document.getElementById("chat-text");
      if (box) box.focus();
    }
  });
})();
