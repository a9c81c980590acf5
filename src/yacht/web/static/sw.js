// The app's service worker (docs/web/offline.md), served as /sw.js from the root of the app
// (under root_path), so its scope is the whole app. Hand-written rather than Workbox: the app
// has no build step and no npm dependency at run time, and the job is small (precache one
// page's files, answer from them when the network is gone).
//
// - Install: precache the shell (the server fills in SHELL and VERSION: a digest of those
//   files) into the cache yacht-VERSION. The new worker then waits; the page lets it take
//   over only when no game is in progress (it posts "skip-waiting"), so a game is never
//   reloaded under its players.
// - Fetch, inside the scope: the strategy tables' values files (named by their contents) from
//   the cache first, fetched and kept on first use; the shell's files and the pages from the
//   network first (online the app is always the server's), from the cache when the network
//   fails or takes over 3 s; a page asked for offline that is not cached opens the play page.
//   Everything else (the API, sockets) goes to the network untouched.
const VERSION = "__VERSION__";
const SHELL = [/* SHELL */];
const CACHE = `yacht-${VERSION}`;
const TABLES = "yacht-tables"; // values files of the other presets, kept across versions
const BASE = self.registration.scope;
const shell = new Set(SHELL.map((url) => new URL(url, BASE).href));
const PLAY = new URL("play", BASE).href;
const PATIENCE = 3000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...shell])));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("yacht-") && name !== CACHE && name !== TABLES) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
  if (event.data === "version") event.source?.postMessage({ version: VERSION });
});

async function fromCache(request) {
  return (await caches.match(request, { ignoreSearch: true })) || undefined;
}

async function tablesFirst(request) {
  const cached = await fromCache(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(TABLES)).put(request, response.clone());
  return response;
}

async function networkFirst(request, fallback) {
  const network = fetch(request).then(async (response) => {
    if (response.ok && shell.has(request.url)) (await caches.open(CACHE)).put(request, response.clone());
    return response;
  });
  network.catch(() => {}); // answered from the cache; the failure is handled below
  const late = new Promise((resolve) => setTimeout(resolve, PATIENCE));
  try {
    const first = await Promise.race([network, late]);
    if (first) return first;
    return (await fromCache(request)) || (await network);
  } catch (error) {
    const cached = (await fromCache(request)) || (fallback && (await fromCache(fallback)));
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(BASE)) return;
  const path = request.url.slice(BASE.length);
  if (path.startsWith("static/tables/values-")) {
    event.respondWith(tablesFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, PLAY));
  } else if (shell.has(request.url)) {
    event.respondWith(networkFirst(request, null));
  }
});

// Web Push (docs/web/notifications.md): the server's message, decrypted by the browser, is JSON
// {title, body, tag, url}; one tag per table and turn, so a second copy replaces the first.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  const options = {
    body: message.body || "",
    icon: new URL("static/icons/icon-192.png", BASE).href,
    data: { url: message.url || "" },
  };
  if (message.tag) options.tag = message.tag;
  event.waitUntil(self.registration.showNotification(message.title || "Yacht", options));
});

// A click opens the table: a tab already on it is focused, else a new one opens. Only a page of
// this app is opened, whatever the message says.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  let target = new URL(BASE);
  try {
    const given = new URL(event.notification.data?.url || "", self.location.origin);
    if (given.href.startsWith(BASE)) target = given;
  } catch {}
  event.waitUntil(
    (async () => {
      for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
        if (client.url === target.href && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});
