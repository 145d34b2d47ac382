// A page's messages ("Game created.", "You joined the game.") are news of the
// request that drew the page, shown once (Django's messages are used up by that
// page). The game page then lives on without reloading: when its board is
// drawn again (a move, a live refresh) or the page comes back from the
// browser's history, the messages above it are old news and go.
(function () {
  "use strict";

  function clear() {
    document.querySelectorAll("#main > .messages").forEach(function (list) {
      list.remove();
    });
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    // The event fires on the swapped-in board (as in board.js).
    var board = document.getElementById("board");
    if (board && (event.target === board || board.contains(event.target))) clear();
  });
  // htmx's own history (a move replaced the address): its snapshot of the page
  // was taken before the move, messages and all.
  document.addEventListener("htmx:historyRestore", clear);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) clear();
  });
  var navigation = window.performance && performance.getEntriesByType &&
    performance.getEntriesByType("navigation")[0];
  if (navigation && navigation.type === "back_forward") clear();
})();
