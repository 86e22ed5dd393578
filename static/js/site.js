// The only script of the site besides htmx: say plainly when a submit was not saved,
// and why, so nobody believes a deal was recorded that was not; and bring every
// refusal into view where the user tapped.
(function () {
  var ERRORS = ".field-error, .banner.error";

  // The first refusal inside ``root`` goes to the middle of the screen: clear of the
  // sticky won/lost bar at the bottom, however far down the form it is.
  function showRefusal(root) {
    var error = root && root.querySelector(ERRORS);
    if (error) error.scrollIntoView({ block: "center" });
  }

  // What is brought into view (a refusal, htmx's "show") stops below the page's own
  // banners at the top (deals waiting, not saved), however tall they are now.
  function clearOfAlerts() {
    var alerts = document.querySelector(".alerts");
    if (!alerts || !window.ResizeObserver) return;
    new ResizeObserver(function () {
      var height = alerts.getBoundingClientRect().height;
      document.documentElement.style.scrollPaddingTop = height ? height + 16 + "px" : "";
    }).observe(alerts);
  }

  document.addEventListener("bummerl:refused", function (event) {
    showRefusal(event.target);
  });

  document.addEventListener("DOMContentLoaded", function () {
    clearOfAlerts();
    showRefusal(document.querySelector("main"));
    // What the page said when it was loaded ("Deal 3 corrected: …") stands above the
    // part that htmx swaps, so no later answer replaces it: once a tap has been
    // answered in place, that answer speaks and the old message goes.
    document.body.addEventListener("htmx:beforeSwap", function (event) {
      var said = document.querySelector("main > ul.messages");
      if (said && event.detail.shouldSwap) said.remove();
    });
    // htmx scrolls to the swap's "show" target right after this event: scroll to the
    // refusal once it has.
    document.body.addEventListener("htmx:afterSettle", function (event) {
      var root = event.detail.elt;
      setTimeout(function () {
        showRefusal(root);
      }, 0);
    });
    var banner = document.getElementById("offline");
    if (!banner) return;
    function show(text) {
      banner.textContent = text;
      banner.hidden = false;
    }
    // Signed out (the session ended, or the page's form is too old): the answer names
    // the sign-in address that comes back to this page. Nothing was saved; what the
    // sheet kept on the phone (live.js) is sent once signed in.
    function signIn(url) {
      show(banner.dataset.signedOut + " ");
      var link = document.createElement("a");
      link.href = url;
      link.textContent = banner.dataset.signIn;
      banner.appendChild(link);
    }
    document.addEventListener("bummerl:sign-in", function (event) {
      signIn(event.detail.url);
    });
    // No answer, no answer in time, or a proxy's 502, 503 or 504 (the site restarts):
    // the connection is lost, as far as the user can tell (a deal waits: live.js).
    function lost() {
      show(banner.dataset.offline);
    }
    document.body.addEventListener("htmx:sendError", lost);
    document.body.addEventListener("htmx:timeout", lost);
    document.body.addEventListener("htmx:responseError", function (event) {
      var xhr = event.detail.xhr;
      var url = xhr.getResponseHeader("Bummerl-Sign-In");
      if (url) {
        signIn(url);
        return;
      }
      var status = xhr.status;
      if (status === 502 || status === 503 || status === 504) lost();
      else show(status === 403 || status === 404 ? banner.dataset.gone : banner.dataset.failed);
    });
    document.body.addEventListener("htmx:afterRequest", function (event) {
      if (event.detail.successful) banner.hidden = true;
    });
  });
})();

// What the pages once said in on…= attributes and javascript: links, which the site's
// Content-Security-Policy does not run: a form with ``data-confirm`` asks before it is
// sent, a select with ``data-autosubmit`` sends its form when changed, a link with
// ``data-back`` goes back in the history (else it follows its address).
(function () {
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field.dataset && "autosubmit" in field.dataset && field.form) field.form.submit();
  });
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-back]");
    if (link && window.history.length > 1) {
      event.preventDefault();
      window.history.back();
    }
  });
})();
