/* Slowhand's service worker: shows pushed notifications, opens (or focuses) their game when one is
   clicked, and serves an offline page when a page cannot be reached. Served from the root (/sw.js),
   so its scope is the whole site. */
const CACHE = "slowhand-shell-{{ version }}";
const OFFLINE_URL = "/offline/";
const PRECACHE = {{ precache|safe }};
const ICON = {{ icon|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("slowhand-shell-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

// Pages come from the network; only when it fails does the offline page stand in. Nothing else is
// cached: a card table must never show an old position as if it were the game.
self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE_URL)));
});

// The payload is {"type", "game", "title", "body", "url"}: one notification per game and kind, so a
// message sent twice (a retry) replaces the first instead of adding a second.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = {};
  }
  const title = message.title || "Slowhand";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: message.body || "",
      tag: `${message.type || "notice"}:${message.game || ""}`,
      icon: ICON,
      badge: ICON,
      data: { url: sameOriginPath(message.url) },
    })
  );
});

// A pushed url is a path on this site; anything else opens the home page.
function sameOriginPath(url) {
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//")) return "/";
  return url;
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).pathname === target.pathname);
      if (open) return open.focus();
      return self.clients.openWindow(target.href);
    })
  );
});
