// The new-game form's seats follow the player count: a seat beyond it
// (select[data-seat], numbered from 0 as the form's seat_<n>) is hidden and
// disabled, so it is neither seen nor sent. Without JavaScript every seat shows
// and the form refuses a computer beyond the count (games/forms.py).
(function () {
  "use strict";

  function follow(form) {
    var players = form.querySelector("select[name=players]");
    if (!players) return;
    function update() {
      var count = Number(players.value);
      form.querySelectorAll("select[data-seat]").forEach(function (seat) {
        var beyond = Number(seat.dataset.seat) >= count;
        seat.disabled = beyond;
        var field = seat.closest("div");
        if (field) field.hidden = beyond;
      });
    }
    players.addEventListener("change", update);
    update();
  }

  function start() {
    document.querySelectorAll("form[data-seat-form]").forEach(follow);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
