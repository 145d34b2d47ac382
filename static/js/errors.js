// Say when an HTMX request fails. htmx 2 swaps nothing for an error status or a
// failed connection, so without this a click on the board would seem to do
// nothing. The words are the page's (translated), on #toasts' data attributes.
(function () {
  "use strict";

  function say(key) {
    var toasts = document.getElementById("toasts");
    var text = toasts && toasts.dataset[key];
    if (!text) return;
    var toast = document.createElement("p");
    toast.className = "toast error";
    toast.setAttribute("role", "alert");
    toast.textContent = text;
    toasts.appendChild(toast);
    setTimeout(function () { toast.remove(); }, 15000);
  }

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 403) say("errorForbidden");
    else if (status === 429) say("errorBusy");
    else if (status === 404) say("errorGone");
    else if (status === 503) say("errorUnavailable");
    else say("errorServer");
  });
  document.addEventListener("htmx:sendError", function () { say("errorNetwork"); });
})();
