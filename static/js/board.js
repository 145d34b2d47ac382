// The game board's small script (the page works without it: see game_detail.html).
//
// 1. Choosing a tile group needs no server round trip: each group button carries
//    its legal destinations (data-dests, a JSON object from each line's value to
//    the tiles it sends to the floor) and the values of the fields it sets
//    (data-field-source, data-field-colour); a click marks it pressed, copies
//    those values into the move form and enables those destinations: the row of
//    destination buttons and the player's own pattern lines and floor line, which
//    are submit buttons of the same form. The move is then one POST whose answer
//    is the new board, or, for a player who confirms moves, one GET whose answer
//    is the board as the move would leave it, with Confirm and Undo. Every value
//    is the server's (games/classic/moves.py, docs/moves.md): nothing here builds
//    or splits one.
//    The grey wall's column choice needs nothing here: each column is a button
//    of a form that posts the placement or, for a player who confirms moves,
//    fetches its preview (?column=).
// 2. After HTMX swaps in a new board, keyboard focus moves to what is now
//    actionable: an error, else a move to confirm or a destination, else the
//    chosen or first tile group, else the status line.
// 3. Where nothing is left to act on (after Confirm, or a redraw while another
//    player moves), the page stays where it was: the player's own board, where
//    their tiles landed, keeps its place on the screen (issue #35 item 5), and
//    the status line takes the focus without scrolling the page to it.
(function () {
  "use strict";

  function chooseGroup(board, button) {
    var form = board.querySelector("form.destinations[data-overflow]");
    if (!form) return false;
    var overflowTexts = JSON.parse(form.dataset.overflow || "{}");
    var dests = JSON.parse(button.dataset.dests || "{}");
    board.querySelectorAll("button.group").forEach(function (group) {
      var pressed = group === button;
      group.classList.toggle("selected", pressed);
      group.setAttribute("aria-pressed", pressed ? "true" : "false");
    });
    if (form.elements.group) {
      form.elements.group.value = button.value; // a preview to confirm (GET)
    } else {
      form.elements.source.value = button.dataset.fieldSource;
      form.elements.colour.value = button.dataset.fieldColour;
    }
    var chosen = form.querySelector(".chosen");
    if (chosen) chosen.textContent = button.dataset.chosen || "";
    form.querySelectorAll("button.dest").forEach(function (dest) {
      var legal = Object.prototype.hasOwnProperty.call(dests, dest.value);
      dest.classList.toggle("legal", legal);
      dest.disabled = !legal;
      var overflow = dest.querySelector(".overflow");
      if (overflow) overflow.textContent = legal && dests[dest.value] ? overflowTexts[dests[dest.value]] || "" : "";
    });
    var mine = board.querySelector(".player-board.mine");
    if (mine) {
      mine.querySelectorAll("[data-line]").forEach(function (line) {
        line.classList.toggle("legal", Object.prototype.hasOwnProperty.call(dests, line.dataset.line));
      });
      // The lines themselves are the form's buttons too (form="move-dest").
      mine.querySelectorAll("button[form]").forEach(function (target) {
        target.disabled = !Object.prototype.hasOwnProperty.call(dests, target.value);
      });
    }
    form.hidden = false;
    var first = form.querySelector("button.dest.legal");
    if (first) first.focus();
    return true;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#board button.group[data-dests]");
    if (!button || !button.dataset.dests) return;
    if (chooseGroup(document.getElementById("board"), button)) event.preventDefault();
  });

  // Where the player's own board was on the screen before the board was
  // drawn again (null: no board of theirs, or not a redraw of the board).
  var mineTop = null;

  function mineBoard(board) {
    return board && board.querySelector(".player-board.mine");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var board = document.getElementById("board");
    var mine = mineBoard(board);
    mineTop = mine && event.target === board ? mine.getBoundingClientRect().top : null;
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var board = document.getElementById("board");
    // The event fires on the swapped-in board (its detail.elt is the element
    // that asked, by then replaced).
    if (!board || event.target !== board && !board.contains(event.target)) return;
    var before = mineTop;
    mineTop = null;
    var target = null;
    // In this order (one selector list would take whichever comes first on
    // the page, which is always the status line).
    [".error", ".dest.legal", "button.group.selected", "button.group", ".status"]
      .some(function (selector) { return (target = board.querySelector(selector)); });
    if (!target) return;
    if (!target.matches("button")) target.setAttribute("tabindex", "-1");
    var idle = target.matches(".status");
    target.focus({ preventScroll: idle });
    var mine = mineBoard(board);
    if (idle && mine && before !== null) {
      window.scrollBy(0, mine.getBoundingClientRect().top - before);
    }
  });
})();
