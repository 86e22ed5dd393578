// Every phone at a table up to date, and no deal lost in a dead spot.
//
// 1. The page asks the sheet's version (a few bytes); only when it differs from the
//    page's ``data-version`` it fetches the ``#sheet`` partial and swaps it in. It asks
//    every 2 s while the table is busy: for QUIET_MS after the sheet last changed or the
//    phone was last used (a tap, a key, back to the tab, back online, which also ask at
//    once). After that each poll that finds nothing new waits 2 s longer, up to 10 s: a
//    phone lying on the table asks about a third as often, and the next tap on it asks
//    at once. Polls that do not come through, and deals waiting, keep it at 2 s.
//    Each poll says the version it has (``?seen=``). Where the site runs its push
//    server (bummerl.asgi), that answer waits until the sheet changes (or some 25 s
//    pass) and says so (``Bummerl-Held``): the next one then goes at once, and the
//    phone asks a few times a minute instead of every few seconds. Any other answer
//    (no push server, or it lost Redis) is a plain poll on the schedule above.
//    An entry form its user has begun to fill in is kept as it is (the very element,
//    with its choices, its key and the state ``after`` it was rendered from): sending
//    it then is checked against that state as before.
// 2. A deal sent while the connection is down is kept on the phone (localStorage, per
//    sheet) with its one-time key, and sent in order once the site answers again; the
//    page says how many wait. The first deal kept keeps the ``after`` of its form; each
//    later one was typed on top of the one before it, so it is sent with the state the
//    site answered for that one (a deal from another phone in between refuses it, as it
//    would refuse a form). A refusal stops the queue and shows the site's answer: the
//    templates mark what refuses a deal with ``data-refusal`` ("stale": the sheet
//    changed meanwhile; "error": the site refused it; "invalid": a field is wrong).
//    Classes are for the stylesheet only; what this script decides on is in data-*.
//    A deal counts as recorded only when the answer says so (``Bummerl-Recorded``); any
//    other answer keeps it on the phone. Signed out meanwhile (the session ended), the
//    answer is 401 with the sign-in address (``Bummerl-Sign-In``): the deal stays kept,
//    so does every deal typed after it, the page asks to sign in, and once signed in
//    (the sheet page again, or a poll that comes through) they are sent in order.
//    An answer of the site to a form (a refusal, "Gespeichert … Rückgängig", the end of
//    a game) is never replaced by a live update: an update that arrives after such an
//    answer, or brings the version the page already shows, changes nothing; while the
//    page shows a refusal, a change from another phone is only announced (a tap on the
//    notice shows it), so the refusal stays until its user acts on it.
//    502, 503 and 504 (what a proxy answers while the site restarts) and a request that
//    takes longer than SEND_MS are a lost connection, as a request that never arrived:
//    the deal waits on the phone and is sent again with the same one-time key.
// 3. The service worker (/sw.js) is registered: the sheet page opens in a dead spot.
//    On the first visit, which the worker does not yet control, it is asked to keep
//    a copy of this page at once.
// 4. After two requests that did not come through (polls or sent forms), or as soon as
//    the phone knows it is offline, a badge says "Keine Verbindung"; the next poll that
//    comes through clears it. A held version request does not delay this: going
//    offline, coming back online or a failed send ends it and asks again at once.
(function () {
  "use strict";
  var POLL_MS = 2000; // while the table is busy
  var POLL_MAX_MS = 10000; // a phone left lying while the sheet stands still
  var QUIET_MS = 30000; // how long after a change or a tap the table counts as busy
  var RECORD = /\/record\/$/;
  var SEND_MS = 15000; // a sent deal not answered by then waits on the phone
  var HOLD_MS = 45000; // a held version answer comes within the push server's hold (25 s)

  // Answers of a server behind a proxy that did not reach it: the connection is lost.
  function unreachable(status) {
    return status === 502 || status === 503 || status === 504;
  }

  function sheet() {
    return document.getElementById("sheet");
  }
  function board() {
    return document.getElementById("live");
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map
      .call(b, function (x) {
        return (x + 256).toString(16).slice(1);
      })
      .join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  // What the site's middleware reads: a script's request, and the page it comes from
  // (the page to come back to after signing in).
  function scriptHeaders(extra) {
    var headers = { "HX-Request": "true", "HX-Current-URL": location.href };
    for (var name in extra || {}) headers[name] = extra[name];
    return headers;
  }

  // -- signed out, and the connection badge ------------------------------------------

  var signedOut = null; // the sign-in address while the site says we are signed out
  var failures = 0; // polls in a row that did not come through

  function askSignIn(url) {
    signedOut = url;
    paused = true;
    show();
    document.dispatchEvent(new CustomEvent("bummerl:sign-in", { detail: { url: url } }));
  }

  function badge(lost) {
    var el = document.getElementById("connection");
    if (el) el.hidden = !lost;
  }

  function pollFailed() {
    failures++;
    if (failures >= 2) badge(true);
  }

  // A sent form that did not come through: it counts as a failed poll, and a version
  // request held meanwhile is ended: the next one goes on the busy schedule.
  function sendFailed() {
    pollFailed();
    stir();
    if (asking) asking.abort(false);
  }

  function pollCame() {
    failures = 0;
    badge(false);
    if (signedOut) {
      // Signed in again (in another tab, say): the kept deals may go.
      signedOut = null;
      paused = false;
      var offline = document.getElementById("offline");
      if (offline) offline.hidden = true;
      show();
    }
  }

  // The CSRF token as the site's cookie has it now (a sign-in in another tab renews it),
  // else as the page was rendered with it.
  function csrf() {
    var cookie = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (cookie) return decodeURIComponent(cookie[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // -- a form its user has begun -----------------------------------------------------

  function begun(form) {
    var els = form.elements;
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked !== el.defaultChecked) return true;
      } else if (el.tagName === "SELECT") {
        for (var j = 0; j < el.options.length; j++) {
          if (el.options[j].selected !== el.options[j].defaultSelected) return true;
        }
      } else if (el.type !== "hidden" && el.tagName !== "BUTTON" && el.value !== el.defaultValue) {
        return true;
      }
    }
    var focus = document.activeElement;
    return !!focus && form.contains(focus) && /^(INPUT|SELECT|TEXTAREA)$/.test(focus.tagName) &&
      focus.type !== "radio" && focus.type !== "checkbox";
  }

  // Which form of ``root`` this is: its ``data-form`` (the entry forms': "dreier",
  // "quick", "ended", "tiebreak") and its place among the forms of that name.
  function formName(form) {
    return form.getAttribute("data-form") || "";
  }

  function place(form, root) {
    var same = root.querySelectorAll("form");
    var n = 0;
    for (var i = 0; i < same.length; i++) {
      if (same[i] === form) return [formName(form), n];
      if (formName(same[i]) === formName(form)) n++;
    }
    return null;
  }

  function find(root, where) {
    var forms = root.querySelectorAll("form");
    var n = 0;
    for (var i = 0; i < forms.length; i++) {
      if (formName(forms[i]) !== where[0]) continue;
      if (n === where[1]) return forms[i];
      n++;
    }
    return null;
  }

  function parsed(html) {
    return new DOMParser().parseFromString(html, "text/html").getElementById("sheet");
  }

  // Swap a fresh ``#sheet`` in (its HTML, or the element parsed from it), keeping the
  // forms the user has begun.
  function swap(html, keepBegun) {
    var old = sheet();
    var fresh = typeof html === "string" ? parsed(html) : html;
    if (!old || !fresh) return false;
    fresh = document.importNode(fresh, true);
    var focus = document.activeElement;
    if (keepBegun) {
      var forms = old.querySelectorAll("form");
      for (var i = 0; i < forms.length; i++) {
        if (!begun(forms[i])) continue;
        var twin = find(fresh, place(forms[i], old));
        if (!twin) continue;
        var open = forms[i].parentElement.tagName === "DETAILS" && forms[i].parentElement.open;
        twin.replaceWith(forms[i]);
        if (open) forms[i].parentElement.open = true;
      }
    }
    old.replaceWith(fresh);
    if (window.htmx) htmx.process(fresh);
    if (focus && focus !== document.body && fresh.contains(focus)) focus.focus();
    return true;
  }

  function versionOf(html) {
    var s = parsed(html);
    return s && s.dataset.version;
  }

  // Answers to a form shown in ``#sheet`` so far (htmx's swaps and the waiting deals'):
  // a live update begun before the last of them is out of date.
  var answers = 0;

  // -- 1. polling -----------------------------------------------------------------------

  var busy = false;
  var asking = null; // the version request under way: abort() ends it
  var lastStir = Date.now(); // the sheet changed or the phone was used
  var wait = POLL_MS; // until the next poll
  var timer = null;

  // The sheet changed, or the phone was used: polls go back to every 2 s.
  function stir() {
    lastStir = Date.now();
    wait = POLL_MS;
  }

  // After a poll (or a flush of waiting deals): when the next one goes. ``quiet``: it
  // came through and found the sheet as the page shows it.
  function schedule(quiet) {
    if (!quiet || Date.now() - lastStir < QUIET_MS) wait = POLL_MS;
    else wait = Math.min(POLL_MAX_MS, wait + POLL_MS);
    clearTimeout(timer);
    timer = setTimeout(poll, wait);
  }

  function poll() {
    if (!tick()) schedule(false);
  }

  // Used now (a tap, a key; ``now``: back to the tab, back online, a send failed): polls
  // go back to every 2 s, and one goes at once when the next was further off (or
  // ``now``, which also ends a version request held meanwhile and asks anew).
  function lookNow(now) {
    var slow = wait > POLL_MS;
    stir();
    if (now === true && asking) {
      asking.abort(true); // its ``done`` asks again at once
      return;
    }
    if (slow || now === true) poll();
  }

  function wentOffline() {
    badge(true);
    if (asking) asking.abort(false);
  }

  function lookAtOnce() {
    lookNow(true);
  }

  function pageUrl() {
    var s = sheet();
    var all = /[?&]all=1/.test(location.search) ? "?all=1" : "";
    return s.dataset.live + all;
  }

  // One poll, unless one is under way, the page is hidden or the phone is offline
  // (false: nothing was sent; the caller schedules the next). When it sent, it
  // schedules the next itself once the answer is in.
  function tick() {
    var s = sheet();
    if (!s || !s.dataset.live || busy || document.hidden) return false;
    // A phone that knows it is offline sends nothing; the "online" event ticks again.
    if (navigator.onLine === false) {
      badge(true);
      return false;
    }
    if (document.querySelector(".htmx-request")) return false;
    busy = true;
    var quiet = false;
    var held = false;
    var ended = false; // by this page (offline, a send failed, …): not a failed poll
    var again = false; // ended to ask again at once (back online, back to the tab)
    var done = function () {
      busy = false;
      asking = null;
      clearTimeout(limit);
      if (held || again) {
        clearTimeout(timer);
        timer = setTimeout(poll, 0);
      } else schedule(quiet);
    };
    if (waiting().length && !paused) {
      flush().then(done, done);
      return true;
    }
    var seen = answers; // a form's answer after this makes what the poll finds old
    var request = new AbortController();
    asking = {
      abort: function (atOnce) {
        ended = true;
        again = atOnce && navigator.onLine !== false;
        request.abort();
      },
    };
    // A held answer comes within the push server's hold: one that does not has lost
    // its connection without a word.
    var limit = setTimeout(function () {
      request.abort();
    }, HOLD_MS);
    fetch(s.dataset.live + "version/?seen=" + encodeURIComponent(s.dataset.version || ""), {
      cache: "no-store",
      credentials: "same-origin",
      headers: scriptHeaders(),
      signal: request.signal,
    })
      .then(
        function (response) {
          var url = response.headers.get("Bummerl-Sign-In");
          if (url) {
            if (url !== signedOut) askSignIn(url);
            return null;
          }
          if (!response.ok) {
            pollFailed();
            return null;
          }
          pollCame();
          held = response.headers.get("Bummerl-Held") === "1";
          return response.text();
        },
        function () {
          if (!ended) pollFailed();
          return null;
        }
      )
      .then(function (version) {
        var now = sheet();
        if (!version || !now || answers !== seen) return;
        if (version === now.dataset.version) {
          quiet = true;
          return;
        }
        stir();
        if (refusing(now)) return;
        asking = null; // the page's own request: not ended by a look
        return fetch(pageUrl(), {
          cache: "no-store",
          credentials: "same-origin",
          headers: scriptHeaders(),
        }).then(function (response) {
          if (!response.ok || response.status !== 200) return;
          return response.text().then(function (html) {
            update(html, seen);
          });
        });
      })
      .then(done, done);
    return true;
  }

  // While a refusal shows, a change from another phone is announced, not swapped in:
  // the refusal stays until its user acts on it (true: it did so).
  function refusing(now) {
    if (!now.querySelector("[data-refusal]")) return false;
    say(board().dataset.changed, true);
    return true;
  }

  // A live update's ``#sheet``, fetched after the form answers counted ``seen``: swapped
  // in only when it is news to the page as it is now.
  function update(html, seen) {
    var now = sheet();
    var fresh = parsed(html);
    if (!now || !fresh || answers !== seen || document.querySelector(".htmx-request")) return;
    if (fresh.dataset.version === now.dataset.version || refusing(now)) return;
    swap(fresh, true);
  }

  // -- 2. deals kept while the connection is down ---------------------------------------

  var paused = false;

  function store() {
    var s = sheet();
    return s && s.dataset.live ? "bummerl-waiting:" + s.dataset.live : null;
  }

  function waiting() {
    var name = store();
    if (!name) return [];
    try {
      return JSON.parse(localStorage.getItem(name) || "[]");
    } catch (e) {
      return [];
    }
  }

  function keep(list) {
    var name = store();
    if (!name) return;
    if (list.length) localStorage.setItem(name, JSON.stringify(list));
    else localStorage.removeItem(name);
    show();
  }

  function say(text, reload) {
    var b = board();
    if (!b) return;
    b.replaceChildren();
    if (!text) {
      b.hidden = true;
      return;
    }
    if (reload) {
      b.dataset.showing = "changed";
      var button = document.createElement("button");
      button.className = "link";
      button.textContent = text;
      button.addEventListener("click", function () {
        location.reload();
      });
      b.appendChild(button);
    } else {
      b.textContent = text;
    }
    b.hidden = false;
  }

  function show() {
    var b = board();
    if (!b) return;
    var n = waiting().length;
    if (!n) {
      if (b.dataset.showing === "waiting") say("");
      b.dataset.showing = "";
      return;
    }
    b.dataset.showing = "waiting";
    var one = signedOut ? b.dataset.oneSignedOut : b.dataset.one;
    var many = signedOut ? b.dataset.manySignedOut : b.dataset.many;
    say(n === 1 ? one : many.replace("{n}", n));
  }

  // ``fields``: [name, value] pairs of the form as it was sent.
  function enqueue(form, fields) {
    var list = waiting();
    var kept = fields.filter(function (f) {
      return f[0] !== "csrfmiddlewaretoken";
    });
    var after = null;
    for (var i = 0; i < kept.length; i++) if (kept[i][0] === "after") after = kept[i][1];
    var key = kept.filter(function (f) {
      return f[0] === "key";
    })[0];
    if (key && list.some(function (item) {
      return item.key === key[1];
    })) {
      return; // the same form sent twice: one deal
    }
    list.push({
      action: form.getAttribute("action"),
      key: key ? key[1] : "",
      fields: kept,
      after: list.length ? null : after,
    });
    keep(list);
    var offline = document.getElementById("offline");
    if (offline && !signedOut) offline.hidden = true; // kept: not lost (signed out: still said)
    // The form is ready for the next deal, with a key of its own.
    form.reset();
    form.dataset.keptAt = String(Date.now());
    var input = form.querySelector("input[name=key]");
    if (input) input.value = newKey();
  }

  function recordForm(form) {
    var s = sheet();
    return form && form.tagName === "FORM" && s && s.contains(form) &&
      RECORD.test(form.getAttribute("action") || "") && !!form.querySelector("input[name=key]");
  }

  function pairs(formData) {
    var out = [];
    formData.forEach(function (value, name) {
      out.push([name, String(value)]);
    });
    return out;
  }

  var lastVersion = null;

  function flush() {
    var list = waiting();
    if (!list.length) return Promise.resolve();
    var item = list[0];
    var body = new URLSearchParams();
    item.fields.forEach(function (f) {
      if (f[0] !== "after") body.append(f[0], f[1]);
    });
    var s = sheet();
    body.append("after", item.after !== null ? item.after : lastVersion || (s && s.dataset.version) || "");
    body.append("csrfmiddlewaretoken", csrf());
    var request = new AbortController();
    var limit = setTimeout(function () {
      request.abort();
    }, SEND_MS);
    var lost = function () {
      // Still no connection: everything stays kept, in order.
      pollFailed();
      show();
    };
    return fetch(item.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: scriptHeaders({ "X-CSRFToken": csrf() }),
      signal: request.signal,
    }).then(
      function (response) {
        clearTimeout(limit);
        if (unreachable(response.status)) return lost();
        return response.text().then(function (html) {
          var signIn = response.headers.get("Bummerl-Sign-In");
          if (signIn) {
            // Signed out: nothing was saved; everything stays kept, in order.
            askSignIn(signIn);
            return;
          }
          pollCame(); // the site answers: the connection stands
          if (!response.ok) {
            paused = true;
            var offline = document.getElementById("offline");
            if (offline) {
              var gone = response.status === 403 || response.status === 404;
              offline.textContent = gone ? offline.dataset.gone : offline.dataset.failed;
              offline.hidden = false;
            }
            return;
          }
          var doc = new DOMParser().parseFromString(html, "text/html");
          var refused = doc.querySelector("[data-refusal]");
          var rest = waiting().filter(function (other) {
            return other.key !== item.key;
          });
          if (refused) {
            // The site's answer shows the deal again (and why): the user decides.
            paused = true;
            lastVersion = null;
            keep(rest);
            answers++;
            swap(html, false);
            // Brought into view as a form's refusal is (site.js).
            var shown = sheet();
            if (shown) shown.dispatchEvent(new CustomEvent("bummerl:refused", { bubbles: true }));
            return;
          }
          if (!response.headers.get("Bummerl-Recorded")) {
            // Not the answer of a recorded deal (another page came back): it stays kept.
            paused = true;
            var failed = document.getElementById("offline");
            if (failed) {
              failed.textContent = failed.dataset.failed;
              failed.hidden = false;
            }
            return;
          }
          lastVersion = versionOf(html);
          keep(rest);
          if (rest.length) return flush();
          lastVersion = null;
          answers++;
          swap(html, true);
        });
      },
      function () {
        clearTimeout(limit);
        lost();
      }
    );
  }

  // -- wiring -----------------------------------------------------------------------------

  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!recordForm(form)) return;
      var kept = Number(form.dataset.keptAt || 0);
      if (Date.now() - kept < 800 && !begun(form)) {
        // The second tap of a double tap on a form just kept (and emptied): nothing.
        event.preventDefault();
        event.stopPropagation();
        return;
      }
      if (navigator.onLine !== false && !signedOut && (!waiting().length || paused)) return;
      // Offline, signed out, or deals wait: this one goes behind them.
      event.preventDefault();
      event.stopPropagation();
      var data = new FormData(form, event.submitter || undefined);
      enqueue(form, pairs(data));
      if (navigator.onLine !== false && !signedOut && !busy) {
        busy = true;
        flush().then(
          function () {
            busy = false;
          },
          function () {
            busy = false;
          }
        );
      }
    },
    true
  );

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.body;
    // A sent record form whose request never reached the site, or whose answer did not
    // come (in SEND_MS, or from the site itself): keep it.
    function lostSend(event) {
      var form = event.detail.elt;
      if (recordForm(form)) enqueue(form, pairs(event.detail.requestConfig.formData));
      sendFailed();
    }
    body.addEventListener("htmx:configRequest", function (event) {
      if (recordForm(event.detail.elt)) event.detail.timeout = SEND_MS;
    });
    body.addEventListener("htmx:sendError", lostSend);
    body.addEventListener("htmx:timeout", lostSend);
    body.addEventListener("htmx:responseError", function (event) {
      var xhr = event.detail.xhr;
      var url = xhr.getResponseHeader("Bummerl-Sign-In");
      var form = event.detail.elt;
      if (!url && unreachable(xhr.status)) {
        lostSend(event);
        return;
      }
      // A deal sent while signed out: the site saved nothing and says where to sign in.
      if (!url || !recordForm(form)) return;
      enqueue(form, pairs(event.detail.requestConfig.formData));
      askSignIn(url);
    });
    // A form's answer in the sheet: live updates begun before it are out of date, and
    // a notice of a change it now shows goes.
    body.addEventListener("htmx:beforeSwap", function (event) {
      var s = sheet();
      if (!s || !event.detail.shouldSwap || !s.contains(event.detail.target)) return;
      answers++;
      var b = board();
      if (b && b.dataset.showing === "changed") {
        b.dataset.showing = "";
        say("");
        show();
      }
    });
    body.addEventListener("htmx:afterRequest", function (event) {
      if (event.detail.successful && event.detail.requestConfig.verb === "post") {
        paused = false;
        stir(); // this phone wrote: the table is busy
      }
    });
    // A page the service worker kept: its forms' keys may have been used since.
    if (document.documentElement.hasAttribute("data-kept-copy")) {
      document.querySelectorAll("#sheet input[name=key]").forEach(function (input) {
        input.value = newKey();
      });
    }
    show();
    if (sheet() && sheet().dataset.live) {
      schedule(false);
      window.addEventListener("online", lookAtOnce);
      window.addEventListener("offline", wentOffline);
      document.addEventListener("visibilitychange", lookAtOnce); // back to this tab: look now
      // A tap or a key: the phone is in use, the table busy.
      var used = 0;
      ["pointerdown", "keydown"].forEach(function (name) {
        document.addEventListener(
          name,
          function () {
            if (Date.now() - used < 1000) return; // one look per second of tapping
            used = Date.now();
            lookNow();
          },
          true
        );
      });
    }
    var b = board();
    if (b && b.dataset.worker && "serviceWorker" in navigator) {
      var first = !navigator.serviceWorker.controller && sheet() && sheet().dataset.live;
      navigator.serviceWorker.register(b.dataset.worker, { scope: "/" }).catch(function () {});
      if (first) {
        // Not served through the worker: it keeps a copy of this sheet page once ready.
        navigator.serviceWorker.ready.then(function (registration) {
          if (registration.active) registration.active.postMessage({ keep: location.pathname });
        });
      }
    }
  });
})();
