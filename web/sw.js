// Service worker: keeps the whole app (page, engine, Python runtime) in a cache so it
// starts with no network at all: a tablet at the table, a wiki page opened offline.
// web/build.py fills in VERSION (a hash of every file) and FILES (every file of the site).
"use strict";
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = "hexcombat-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith("hexcombat-") && k !== CACHE).map((k) => caches.delete(k))
      ))
      .then(() => self.clients.claim())
  );
});

// Cache first for the site's own files (they change only with a new build, which brings
// a new VERSION); the page itself is served from the cache for any query string.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const key = request.mode === "navigate" ? new URL("./index.html", self.registration.scope).href : request;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(key, { ignoreSearch: request.mode === "navigate" }))
      .then((hit) => hit || fetch(request))
  );
});
