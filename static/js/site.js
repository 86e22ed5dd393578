// The only script of the site besides htmx: say plainly when a submit was not saved,
// and why, so nobody believes a deal was recorded that was not.
document.addEventListener("DOMContentLoaded", function () {
  var banner = document.getElementById("offline");
  if (!banner) return;
  function show(text) {
    banner.textContent = text;
    banner.hidden = false;
  }
  document.body.addEventListener("htmx:sendError", function () {
    show(banner.dataset.offline);
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    show(status === 403 || status === 404 ? banner.dataset.gone : banner.dataset.failed);
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) banner.hidden = true;
  });
});
