// Live pages over WebSockets. The sockets are doorbells: they only say that
// something changed; the page then refetches its own view over HTTP.
// - every signed-in page: /ws/user/ -> refetch the "your move" badge (and the
//   home page's lists), or a game's chat panel (static/js/chat.js) (+ toast:
//   one per game, closable, gone after a few seconds, none for the game on screen)
// - a game page: /ws/games/<id>/ -> refetch the board when the ply or status moved,
//   or when the ring says "redraw" (not a move: a player's vacation began or
//   ended, and the clocks with it); while the game waits for players, redraw the
//   page when its seats change or it starts
// - a finished game's replay while its review is being made:
//   /ws/games/<id>/review/ -> refetch the Review tab's panel as the review goes
//   on, the whole replay when it is made (or could not be), then stop
// After a dropped connection each socket reconnects and catches up: the game
// socket's first message is the current ply (and the board is drawn again once,
// for a vacation rung meanwhile), the review socket's where the review stands,
// the badge is refetched.
// While a socket is open the page's body says so: data-user-socket-open,
// data-game-socket-open or data-review-socket-open="true" (set on open, removed
// on close; the server joins the socket's group before it accepts, so an open
// socket hears every ring from then on). Browser tests wait for it.
(function () {
  "use strict";

  // The server's "try again later" (games/consumers.py): it could not take the
  // socket on just now (a burst of pages, Redis busy).
  var TRY_AGAIN = 4013;
  var MAX_WAIT = 30000;

  // How long to wait before reconnecting after `failures` failed tries in a
  // row: the ceiling doubles with each (1, 2, 4 ... 30 s) and the wait is a
  // random point in its upper half, so the pages of one busy moment come back
  // spread out instead of all at once. After a socket that worked (the server's
  // hourly close, a restart), failures is 0: 0.5 to 1 s.
  function reconnectDelay(failures) {
    var ceiling = Math.min(1000 * Math.pow(2, failures), MAX_WAIT);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  // A socket that reconnects until its handle's close() says it is no longer
  // wanted; `name` ("user", "game", "review") names its mark on the body.
  function socket(path, name, onMessage, onOpen) {
    var mark = name + "SocketOpen";
    var failures = 0;
    var stopped = false;
    var current = null;
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    function open() {
      if (stopped) return;
      var ws = new WebSocket(scheme + location.host + path);
      current = ws;
      var opened = false;
      ws.onopen = function () {
        opened = true;
        if (onOpen) onOpen();
        document.body.dataset[mark] = "true";
      };
      ws.onmessage = function (event) {
        try { onMessage(JSON.parse(event.data)); } catch (e) { /* ignore */ }
      };
      ws.onclose = function (event) {
        if (current === ws) delete document.body.dataset[mark];
        if (stopped) return;
        // Never opened, or opened only to be told to try again: a failure.
        // A handshake nginx refused (429: too many new or open sockets from
        // this address, deploy/nginx.conf) is one too: the browser hides its
        // status, so the growing, jittered wait is how a page backs off.
        if (opened && event.code !== TRY_AGAIN) failures = 0;
        else failures += 1;
        setTimeout(open, reconnectDelay(failures));
      };
    }
    open();
    return {
      close: function () {
        stopped = true;
        if (current) current.close();
      }
    };
  }

  var TOAST_SECONDS = 8;
  var leaving = false; // the page is being left for another
  window.addEventListener("beforeunload", function () { leaving = true; });
  window.addEventListener("pageshow", function () { leaving = false; });

  // Toasts: one per game (a newer one replaces it), closable, gone after a few
  // seconds; none for the game on screen, whose board already says it.
  function onScreenGame() {
    var live = document.getElementById("live-game");
    return live ? live.dataset.game : null;
  }

  function tidyToasts(toasts) {
    var newest = {};
    toasts.querySelectorAll(".toast[data-game]").forEach(function (toast) {
      var game = toast.dataset.game;
      if (newest[game]) newest[game].remove();
      newest[game] = toast;
      if (game === onScreenGame()) toast.remove();
      if (!toast.dataset.timer) {
        toast.dataset.timer = "1";
        setTimeout(function () { toast.remove(); }, TOAST_SECONDS * 1000);
      }
    });
  }

  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest(".toast-close");
    if (close) close.closest(".toast").remove();
  });

  // One refetch at a time for each part of the page (the badge, the home
  // page's lists, the board), each its own htmx source: htmx.ajax without one
  // makes every call share the page's body, whose queue keeps only the newest
  // request, so one part's refetch would silently drop another's. A call that
  // comes while one is under way is remembered and made when it ends, to the
  // part as it then is (url(element) gives the address at that moment).
  function refetcher(id, url) {
    var busy = false;
    var again = false;
    function run() {
      var element = document.getElementById(id);
      if (!element || !window.htmx) return;
      if (busy) { again = true; return; }
      busy = true;
      again = false;
      function done() {
        busy = false;
        if (again) run();
      }
      htmx.ajax("GET", url(element), { source: element, target: element, swap: "outerHTML" })
        .then(done, done);
    }
    return run;
  }

  // The home page's lists follow the badge.
  var refreshLists = refetcher("home-lists", function (lists) { return lists.dataset.url; });

  // The badge; with the game a ring said is now the player's move, its toast
  // (kept for the next refetch if one is under way; the server checks it is
  // still their move there).
  var toastGame = null;
  var fetchBadge = refetcher("turn-badge", function (badge) {
    var game = toastGame;
    toastGame = null;
    if (game && String(game) === onScreenGame()) game = null;
    return badge.dataset.url + (game ? "?game=" + encodeURIComponent(game) : "");
  });
  function refreshBadge(game) {
    if (game) toastGame = game;
    fetchBadge();
  }

  // A game's chat changed (or, after a reconnect, may have): static/js/chat.js
  // fetches the chat panel again if it is that game's.
  function chatChanged(game) {
    document.dispatchEvent(new CustomEvent("live:chat", { detail: { game: game } }));
  }

  function watchGame(path) {
    var latest = null; // newest {ply, status} the socket announced
    var fetching = false;
    var hello = true; // the socket's first message says where things stand
    var redraw = false; // a ring asked for the board again at the same ply
    var opened = false; // the socket was open before (a reconnect catches up)
    // The player's own actions on the board (a move, a resignation) under way.
    // The board is not refetched meanwhile: the action's answer is the new
    // board, and a refetch that landed first would detach the form that sent
    // it, so htmx would swap the answer into the detached board and lose its
    // out-of-band parts (the toast "Your vacation has ended").
    var actions = 0;

    function live() { return document.getElementById("live-game"); }
    function board() { return document.getElementById("board"); }
    function stale() {
      var b = board();
      if (!b || !latest) return false;
      return redraw || latest.ply > Number(b.dataset.ply) ||
        (latest.ply === Number(b.dataset.ply) && latest.status !== b.dataset.status);
    }
    function refresh() {
      if (fetching || actions > 0 || !stale()) return;
      fetching = true;
      redraw = false;
      var done = function () { fetching = false; refresh(); };
      htmx.ajax("GET", live().dataset.boardUrl, { source: board(), target: board(), swap: "outerHTML" })
        .then(done, done);
    }
    // A game waiting for players: its seats changed or it started (or was
    // called off). The page's main part is drawn again in place: the seats,
    // or the board (whose socket is this one).
    function redrawPage() {
      // Not while the page is being left (its own form was sent): the fetch
      // would draw, and so use up, the messages meant for the next page.
      if (leaving) return;
      fetch(location.href, { credentials: "same-origin" })
        .then(function (response) { return response.text(); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
          var main = document.getElementById("main");
          if (!fresh || !main) return;
          main.replaceWith(fresh);
          htmx.process(fresh);
          document.dispatchEvent(new CustomEvent("live:redrawn")); // fold.js
          refresh();
        });
    }
    document.addEventListener("htmx:beforeSend", function (event) {
      var b = board();
      var elt = event.detail.elt;
      if (!b || elt === b || !b.contains(elt)) return;
      actions += 1;
      // loadend comes after htmx's own load handler (the swap) and on an
      // error, an abort or a timeout too.
      event.detail.xhr.addEventListener("loadend", function () {
        actions -= 1;
        refresh();
      });
    });
    socket(path, "game", function (msg) {
      if (msg.type !== "game") return;
      var first = hello;
      hello = false;
      var current = live();
      if (!current) return;
      if (current.dataset.waiting) {
        if (!first || msg.status !== current.dataset.waiting) redrawPage();
        return;
      }
      if (msg.redraw) redraw = true;
      if (latest && msg.ply < latest.ply) return; // an older message, arrived late
      latest = { ply: msg.ply, status: msg.status };
      refresh();
    }, function () {
      if (opened) redraw = true; // a reconnect: what was rung meanwhile is unknown
      opened = true;
    });
  }

  // A finished game's replay while its review is being made (the Review tab's
  // panel carries data-socket, data-status and data-done: templates/games/
  // replay.html; and while it waits, data-ahead: its place in the queue). Each
  // ring says where the review stands: the panel is fetched again when it went
  // on or its place moved (the view answers the panel alone, as its htmx
  // target), the whole replay once it is made or could not be (the step's
  // review above the board comes with it), and the socket closes. The first
  // message after each (re)connect catches up the same way.
  function watchReview(path) {
    var refreshPanel = refetcher("review-panel", function () { return location.href; });
    var refreshReplay = refetcher("replay", function () { return location.href; });
    var handle = socket(path, "review", function (msg) {
      if (msg.type !== "review") return;
      var panel = document.getElementById("review-panel");
      if (!panel || !panel.dataset.socket) { handle.close(); return; }
      if (msg.status === "done" || msg.status === "failed") {
        handle.close();
        refreshReplay();
      } else if (msg.status !== panel.dataset.status || String(msg.done) !== panel.dataset.done ||
                 (msg.ahead != null && String(msg.ahead) !== panel.dataset.ahead)) {
        refreshPanel(); // went on, or while it waits, its place in the queue moved
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var toasts = document.getElementById("toasts");
    if (toasts && "MutationObserver" in window) {
      new MutationObserver(function () { tidyToasts(toasts); })
        .observe(toasts, { childList: true });
    }
    if (!("WebSocket" in window)) return;
    if (document.body.dataset.userSocket) {
      var first = true;
      socket(document.body.dataset.userSocket, "user", function (msg) {
        if (msg.type === "chat") { chatChanged(msg.game); return; }
        if (msg.type !== "user") return;
        refreshBadge(msg.your_turn ? msg.game : null);
        refreshLists();
      }, function () {
        if (!first) { refreshBadge(null); refreshLists(); chatChanged(null); } // catch up after a reconnect
        first = false;
      });
    }
    var live = document.getElementById("live-game");
    if (live) watchGame(live.dataset.socket);
    var review = document.getElementById("review-panel");
    if (review && review.dataset.socket) watchReview(review.dataset.socket);
  });
})();
