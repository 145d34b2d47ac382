// The installable site and its notifications (issue #18), on every page:
// - registers the service worker (/sw.js, named by <body data-service-worker>);
// - on the sign-up form, fills the hidden time-zone field with the browser's
//   zone (Intl.DateTimeFormat().resolvedOptions().timeZone);
// - on the settings page (#push-settings), turns push on or off in this browser:
//   PushManager.subscribe with the site's VAPID key, then the subscription is
//   posted to the server (JSON, with the CSRF token); off unsubscribes and tells
//   the server. Texts come translated in the section's data-* attributes.
(function () {
  "use strict";

  function registerWorker() {
    var url = document.body.dataset.serviceWorker;
    if (!url || !("serviceWorker" in navigator)) return Promise.resolve(null);
    return navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      return null;
    });
  }

  function fillTimeZone() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
    document.querySelectorAll("input[data-browser-time-zone]").forEach(function (input) {
      if (!input.value && zone) input.value = zone;
    });
    document.querySelectorAll("select[data-browser-time-zone]").forEach(function (select) {
      if (select.dataset.guess !== "1" || !zone) return;
      var option = select.querySelector('option[value="' + zone.replace(/"/g, "") + '"]');
      if (option) select.value = zone;
    });
  }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function post(url, data) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(data)
    }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    });
  }

  function pushSettings(section, registration) {
    var status = section.querySelector("[data-push-status]");
    var on = section.querySelector("[data-push-on]");
    var off = section.querySelector("[data-push-off]");
    function say(key) {
      if (status) status.textContent = section.dataset[key] || "";
    }
    function show(subscribed) {
      section.dataset.subscribed = subscribed ? "1" : "";
      if (on) on.hidden = subscribed;
      if (off) off.hidden = !subscribed;
      say(subscribed ? "textOn" : "textOff");
    }
    if (!registration || !("PushManager" in window) || !("Notification" in window)) {
      if (on) on.hidden = true;
      if (off) off.hidden = true;
      say("textUnsupported");
      return;
    }
    if (Notification.permission === "denied") say("textDenied");
    navigator.serviceWorker.ready.then(function (ready) {
      return ready.pushManager.getSubscription();
    }).then(function (subscription) {
      show(Boolean(subscription));
      if (Notification.permission === "denied") say("textDenied");
    });

    if (on) on.addEventListener("click", function () {
      on.disabled = true;
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") { say("textDenied"); return null; }
        return navigator.serviceWorker.ready.then(function (ready) {
          return ready.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(section.dataset.vapidKey)
          });
        }).then(function (subscription) {
          return post(section.dataset.subscribeUrl, subscription.toJSON());
        }).then(function () {
          show(true);
          location.reload(); // the list of devices
        });
      }).catch(function () { say("textFailed"); }).then(function () { on.disabled = false; });
    });

    if (off) off.addEventListener("click", function () {
      off.disabled = true;
      navigator.serviceWorker.ready.then(function (ready) {
        return ready.pushManager.getSubscription();
      }).then(function (subscription) {
        if (!subscription) return null;
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(section.dataset.unsubscribeUrl, { endpoint: endpoint });
        });
      }).then(function () {
        show(false);
        location.reload();
      }).catch(function () { say("textFailed"); }).then(function () { off.disabled = false; });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    fillTimeZone();
    var worker = registerWorker();
    var section = document.getElementById("push-settings");
    if (section) worker.then(function (registration) { pushSettings(section, registration); });
  });
})();
