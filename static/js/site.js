// The only script of the site besides htmx: say plainly when a submit did not reach
// the server, so nobody believes a deal was saved that was not.
document.addEventListener("DOMContentLoaded", function () {
  var banner = document.getElementById("offline");
  if (!banner) return;
  document.body.addEventListener("htmx:sendError", function () { banner.hidden = false; });
  document.body.addEventListener("htmx:responseError", function () { banner.hidden = false; });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) banner.hidden = true;
  });
});
