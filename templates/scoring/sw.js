{% autoescape off %}// Bummerl's service worker: the styles and scripts from the cache, pages from the
// network first; a sheet page that does not come through (no answer, or a proxy's 502,
// 503 or 504 while the site restarts) comes from the copy kept when it last did, marked
// as a kept copy (live.js then gives its forms fresh one-time keys). The page that
// installed the worker, which it did not control yet, asks for its copy by a message.
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

// The kept copy keeps the page's Content-Security-Policy and Permissions-Policy: a page
// made here carries only the headers given to it.
var KEPT_HEADERS = ["Content-Security-Policy", "Permissions-Policy"];

function keptCopy(response) {
  var kept = KEPT_HEADERS.map(function (name) {
    return [name, response.headers.get(name)];
  });
  return response.text().then(function (html) {
    var marked = html.replace("<html ", "<html data-kept-copy ");
    var headers = { "Content-Type": "text/html; charset=utf-8" };
    kept.forEach(function (pair) {
      if (pair[1]) headers[pair[0]] = pair[1];
    });
    return new Response(marked, { status: 200, headers: headers });
  });
}

// Keep ``response`` as the copy of the sheet page at ``key``, when it is one.
function keep(key, response) {
  if (!response.ok || response.redirected) return Promise.resolve();
  var copy = response.clone();
  return caches.open(CACHE).then(function (cache) {
    return cache.put(key, copy);
  });
}

function unreachable(response) {
  return response.status === 502 || response.status === 503 || response.status === 504;
}

self.addEventListener("message", function (event) {
  var url = new URL(String((event.data && event.data.keep) || ""), self.location.origin);
  if (url.origin !== self.location.origin || !SHEET_PAGE.test(url.pathname)) return;
  event.waitUntil(
    fetch(url.pathname, { credentials: "same-origin" }).then(function (response) {
      return keep(url.origin + url.pathname, response);
    }).catch(function () {})
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && SHEET_PAGE.test(url.pathname)) {
    var key = url.origin + url.pathname;
    var kept = function (answer) {
      return caches.match(key, { ignoreVary: true }).then(function (copy) {
        if (copy) return keptCopy(copy);
        return answer || Response.error();
      });
    };
    event.respondWith(
      fetch(request).then(function (response) {
        if (unreachable(response)) return kept(response);
        keep(key, response);
        return response;
      }).catch(function () {
        return kept(null);
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
