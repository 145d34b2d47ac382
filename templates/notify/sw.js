// The site's service worker (issue #18), served at /sw.js by notify.views:
// - shows the push messages the server sends (notify.services.push_payload:
//   title, body, url, tag) and opens the game's page, or a tab already on it,
//   when the notification is clicked;
// - when a page cannot be loaded for want of a network, shows the offline
//   page it kept at install (no offline play: every move goes to the server).
"use strict";

var OFFLINE_URL = "{{ offline_url|escapejs }}";
var ICON_URL = "{{ icon_url|escapejs }}";
var BADGE_URL = "{{ badge_url|escapejs }}";
var CACHE = "azul-offline-1";
var PRECACHE = [{% for url in precache %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name !== CACHE; })
        .map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  // Page loads only (GET); everything else goes to the network as usual.
  if (event.request.mode !== "navigate" || event.request.method !== "GET") return;
  event.respondWith(
    fetch(event.request).catch(function () {
      return caches.match(OFFLINE_URL);
    })
  );
});

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  var options = {
    body: data.body || "",
    icon: ICON_URL,
    badge: BADGE_URL,
    tag: data.tag || undefined,
    renotify: Boolean(data.tag),
    data: { url: data.url || "/" }
  };
  event.waitUntil(self.registration.showNotification(data.title || "Azul", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var path = (event.notification.data && event.notification.data.url) || "/";
  var url = new URL(path, self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url.split("#")[0] === url.href && "focus" in windows[i]) {
          return windows[i].focus();
        }
      }
      return self.clients.openWindow(url.href);
    })
  );
});
