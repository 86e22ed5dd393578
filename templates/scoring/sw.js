{% autoescape off %}// Bummerl's service worker: the styles and scripts from the cache, pages from the
// network first; a sheet page that does not come through comes from the copy kept when
// it last did, marked as a kept copy (live.js then gives its forms fresh one-time keys).
"use strict";
var CACHE = "{{ cache }}";
var ASSETS = {{ assets }};
var SHEET_PAGE = /^\/(tables\/\d+|e\/[^/]+)\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      return cache.addAll(ASSETS);
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name !== CACHE;
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

// The kept copy keeps the page's Content-Security-Policy: a page made here carries only
// the headers given to it.
function keptCopy(response) {
  var policy = response.headers.get("Content-Security-Policy");
  return response.text().then(function (html) {
    var marked = html.replace("<html ", "<html data-kept-copy ");
    var headers = { "Content-Type": "text/html; charset=utf-8" };
    if (policy) headers["Content-Security-Policy"] = policy;
    return new Response(marked, { status: 200, headers: headers });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && SHEET_PAGE.test(url.pathname)) {
    var key = url.origin + url.pathname;
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok && !response.redirected) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) {
            cache.put(key, copy);
          });
        }
        return response;
      }).catch(function () {
        return caches.match(key, { ignoreVary: true }).then(function (kept) {
          if (kept) return keptCopy(kept);
          return Response.error();
        });
      })
    );
    return;
  }
  if (ASSETS.indexOf(url.pathname) !== -1) {
    event.respondWith(
      caches.match(request, { ignoreVary: true }).then(function (kept) {
        return kept || fetch(request);
      })
    );
  }
});
{% endautoescape %}
