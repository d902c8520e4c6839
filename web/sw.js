// Service worker: keeps the app (page, engine, Python runtime) in a cache so it starts with
// no network at all: a tablet at the table, a wiki page opened offline.
// web/build.py fills in VERSION (a hash of every file) and FILES (the app's own small files,
// kept even when this start did not need them: the library's styles, the other demos).
//
// Nothing is downloaded twice: the page registers this worker once the app is ready (a first
// visit fetched every file of its start itself); the WebAssembly file the page keeps for it
// (HANDOFF_CACHE); the page then lists every file it fetched ("keep" message) and what is
// not kept yet is added (from the HTTP cache, revalidated). A file fetched while this worker
// controls the page and not kept yet is kept as it passes (cache on fetch). Files of the vendored
// PyScript that the page never loads (terminal, editor, ...) are never fetched.
"use strict";
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = "hexcombat-" + VERSION;
const SNAPSHOT_CACHE = "hexcombat-python-__SNAPSHOT_KEY__";  // see python-start.mjs
const HANDOFF_CACHE = "hexcombat:handoff";  // the runtime a first visit fetched, see python-start.mjs

function replaced() {
  return !!self.serviceWorker && self.serviceWorker.state === "redundant";
}

// The page is kept as ./index.html (every navigation is answered with it) but fetched as
// "./", the address the browser has just loaded: revalidated from its HTTP cache, not
// downloaded a second time.
function keep(cache, urls) {
  const scope = self.registration.scope, page = new URL("./index.html", scope).href;
  return Promise.all(urls.map((url) =>
    cache.match(url).then((hit) => hit || (url !== page ? cache.add(url) : fetch(scope).then((response) => {
      if (!response.ok) throw new TypeError("the page: HTTP " + response.status);
      return cache.put(url, response);
    })))
  ));
}

// What the page kept for this worker before it controlled the page: moved into this build's
// cache (so not downloaded again), then the hand-off cache is deleted. One take-over at a
// time: two at once (activation and a page's "keep") could have the second open the cache
// the first just deleted, making it again. A copy that cannot be moved is deleted all the
// same (the worker then keeps the file as it would any other).
let takingOver = Promise.resolve();
function takeOver(cache) {
  const move = () => caches.has(HANDOFF_CACHE).then((has) => has && caches.open(HANDOFF_CACHE)
    .then((handoff) => handoff.keys().then((requests) => Promise.all(requests.map((request) =>
      handoff.match(request).then((response) => response && cache.put(request, response))
    ))))
    .catch(() => {})
    .then(() => caches.delete(HANDOFF_CACHE)));
  takingOver = takingOver.then(move, move);
  return takingOver;
}

// Installing fetches nothing, so that the first worker controls the page (clients.claim)
// before the runtime is requested; the app's own files are kept with the page's list below.
// A new build installs beside the running one and waits: the page says "a new version is
// ready" and sends "skip-waiting" only when the user agrees (never in the middle of a fight
// without asking), then reloads.
self.addEventListener("install", () => {
  if (!self.registration.active) self.skipWaiting();
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

// On activation every other build's cache is deleted, old Python start-up snapshots too
// (this build's is kept: a build that changed no engine file starts from it still), and a
// hand-off the page finished writing after an earlier take-over is moved in and deleted.

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.open(CACHE).then(takeOver)
      .then(() => caches.keys())
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith("hexcombat-") && k !== CACHE && k !== SNAPSHOT_CACHE).map((k) => caches.delete(k))
      ))
      .then(() => self.clients.claim())
  );
});

// The page's list of what it fetched before this worker controlled it; the answer says
// when all of it is kept (the page then marks <html data-offline="ready">).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  const scope = new URL(self.registration.scope);
  const urls = data.urls.filter((u) => {
    try {
      const url = new URL(u);
      return url.origin === scope.origin && url.pathname.startsWith(scope.pathname);
    } catch (e) { return false; }
  });
  const port = event.ports && event.ports[0];
  // A worker a new build has replaced keeps nothing: opening its cache now would make the
  // old build's cache again after the new worker deleted it.
  if (replaced()) return;
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => takeOver(cache).then(() => cache))
      .then((cache) => keep(cache, FILES.map((f) => new URL(f, scope).href).concat(urls)))
      .then(() => port && port.postMessage({ kept: urls.length }))
      .catch((error) => port && port.postMessage({ error: String(error) }))
  );
});

// Cache first for the site's own files (they change only with a new build, which brings
// a new VERSION); the page itself is served from the cache for any query string. A file
// not cached yet is fetched and kept as it passes.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const navigate = request.mode === "navigate";
  const key = navigate ? new URL("./index.html", self.registration.scope).href : request;
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(key, { ignoreSearch: navigate }).then((hit) => {
        if (hit) return hit;
        return fetch(request).then((response) => {
          if (response.ok && response.type === "basic" && !navigate && !url.search && !replaced()) {
            event.waitUntil(cache.put(request, response.clone()));
          }
          return response;
        });
      })
    )
  );
});
