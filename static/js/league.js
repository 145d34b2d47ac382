// A league group's page: its doorbell (/ws/leagues/groups/<id>/, the
// table's data-socket) rings when a game of the group ends, and the table is
// fetched again (htmx, the page's "table" partial). Reconnects after a drop
// with a growing wait, and fetches once on reconnect to catch up. While the
// socket is open the body carries data-group-socket-open="true" (tests wait
// for it).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var table = document.getElementById("group-table");
    if (!table || !("WebSocket" in window) || !window.htmx) return;
    var path = table.dataset.socket;
    var failures = 0;
    var opened = false;
    function refetch() {
      var current = document.getElementById("group-table");
      if (!current) return;
      htmx.ajax("GET", current.dataset.url, { source: current, target: current, swap: "outerHTML" });
    }
    function open() {
      var scheme = location.protocol === "https:" ? "wss://" : "ws://";
      var ws = new WebSocket(scheme + location.host + path);
      ws.onopen = function () {
        if (opened) refetch(); // what ended meanwhile
        opened = true;
        failures = 0;
        document.body.dataset.groupSocketOpen = "true";
      };
      ws.onmessage = function () { refetch(); };
      ws.onclose = function () {
        delete document.body.dataset.groupSocketOpen;
        failures += 1;
        var ceiling = Math.min(1000 * Math.pow(2, failures), 30000);
        setTimeout(open, ceiling / 2 + Math.random() * (ceiling / 2));
      };
    }
    open();
  });
})();
