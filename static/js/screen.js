// The room screen: its pages take turns every ``data-cycle`` ms, and every ``data-poll``
// ms the page fetches its partial (``#screen``, as the live bracket does) and puts it
// in place, staying on the page it showed. No framework; without JavaScript the first
// page shows.
(function () {
  "use strict";
  var index = 0;

  function pages() {
    return document.querySelectorAll("#screen .screen-page");
  }

  function show(i) {
    var all = pages();
    if (!all.length) return 0;
    index = ((i % all.length) + all.length) % all.length;
    for (var n = 0; n < all.length; n++) all[n].hidden = n !== index;
    return all.length;
  }

  function poll() {
    if (document.hidden) return;
    fetch(location.pathname, { cache: "no-store", headers: { "HX-Request": "true" } })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("screen");
        var old = document.getElementById("screen");
        if (!fresh || !old) return;
        old.replaceWith(document.importNode(fresh, true));
        show(index);
      })
      .catch(function () {});
  }

  // ``poll`` fetches the partial now (the browser test asks for it rather than wait).
  window.roomScreen = { show: show, poll: poll, pages: function () { return pages().length; } };

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.body;
    show(0);
    setInterval(function () {
      show(index + 1);
    }, Number(body.dataset.cycle) || 12000);
    setInterval(poll, Number(body.dataset.poll) || 10000);
  });
})();
