// "Copy" buttons (button[data-copy="<id of a field>"]): the field's text goes
// to the clipboard through the Clipboard API, and the status beside the button
// says so. Shown only where the API exists (a secure page with JavaScript);
// elsewhere the read-only field can be selected and copied by hand. One
// listener on the document, so buttons drawn again by live.js work too.
(function () {
  "use strict";

  function showButtons() {
    if (!(navigator.clipboard && navigator.clipboard.writeText)) return;
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  }

  if (window.__copyButtons) return; // the script is on the page once per drawing
  window.__copyButtons = true;

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.dataset.copy);
    if (!field) return;
    field.select();
    var status = button.parentElement.querySelector("[data-copied-text]");
    navigator.clipboard.writeText(field.value).then(function () {
      if (status) status.textContent = status.dataset.copiedText;
    }, function () {
      if (status) status.textContent = "";
    });
  });
  document.addEventListener("live:redrawn", showButtons);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showButtons);
  else showButtons();
})();
