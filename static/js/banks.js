// The seat to move's time left, counting down (templates/games/_board.html,
// issue #37 item 3). Each running bank (.bank[data-running]) carries
// data-bank-seconds, the seconds left when the server drew it; from the moment
// this script first sees it (a page load, or a board htmx swapped in, which is
// a new element) it counts down once a second: data-left holds the seconds
// left now, and .bank-count shows them ("2 days 04:05:06 left", the unit in
// the page's language, "left" from the server's data-left-text). Without
// JavaScript the bank reads "until" its deadline.
(function () {
  "use strict";

  var seen = new WeakMap(); // bank element -> Date.now() when first counted

  function dayWords(days) {
    var lang = document.documentElement.lang || undefined;
    try {
      return new Intl.NumberFormat(lang, { style: "unit", unit: "day", unitDisplay: "long" })
        .format(days);
    } catch (e) {
      return days + " d";
    }
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function span(seconds) {
    var days = Math.floor(seconds / 86400);
    var rest = seconds % 86400;
    var clock = Math.floor(rest / 3600) + ":" + pad(Math.floor(rest / 60) % 60) + ":" + pad(rest % 60);
    return days ? dayWords(days) + " " + clock : clock;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".bank[data-running]").forEach(function (bank) {
      if (!seen.has(bank)) seen.set(bank, now);
      var drawn = Number(bank.dataset.bankSeconds);
      var left = Math.max(0, drawn - Math.floor((now - seen.get(bank)) / 1000));
      bank.dataset.left = String(left);
      var count = bank.querySelector(".bank-count");
      if (!count) return;
      var text = (count.dataset.leftText || "%(span)s").replace("%(span)s", span(left));
      if (count.textContent !== text) count.textContent = text;
      count.hidden = false;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("live:redrawn", tick);
})();
