// After HTMX swaps in a new board, move keyboard focus to what is now actionable:
// the first legal destination, else the first tile group, else the status line.
document.addEventListener("htmx:afterSwap", function (event) {
  var board = document.getElementById("board");
  if (!board || !board.contains(event.detail.elt) && event.detail.elt !== board) return;
  var target = board.querySelector(".error, .dest.legal, button.group.selected, button.group, .status");
  if (target) {
    if (!target.matches("button")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: false });
  }
});
