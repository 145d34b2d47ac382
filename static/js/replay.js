// Replay viewer: arrow keys step, Home/End jump (each clicks its link, so the
// request is the same as a click). Keys typed into a form field are left alone.
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  var target = event.target;
  if (target && target.matches && target.matches("input, select, textarea")) return;
  var link = document.querySelector('#replay .replay-nav a[data-key="' + event.key + '"]');
  if (link) {
    event.preventDefault();
    link.click();
  }
});

// The review's best decision drawn on the board (?best, templates/games/
// _review_best.html): its marks (data-best) are brought into view, under the
// sticky replay controls: all of them centred when they fit the screen, else
// the first at the top. On a page load (after the browser's own jump to the
// board, #position) and on each replay htmx draws.
(function () {
  "use strict";

  function showBest() {
    var marks = document.querySelectorAll("#replay [data-best]");
    var top = Infinity;
    var bottom = -Infinity;
    marks.forEach(function (mark) {
      var box = mark.getBoundingClientRect();
      if (!box.width && !box.height) return; // folded away
      top = Math.min(top, box.top);
      bottom = Math.max(bottom, box.bottom);
    });
    if (top === Infinity) return;
    var nav = document.querySelector("#replay .replay-nav");
    var covered = nav ? nav.getBoundingClientRect().height : 0;
    var room = window.innerHeight - covered;
    var span = bottom - top;
    var above = span + 16 < room ? covered + (room - span) / 2 : covered + 8;
    window.scrollBy(0, top - above);
  }

  window.addEventListener("load", showBest);
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "replay") showBest();
  });
})();
