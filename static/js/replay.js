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
