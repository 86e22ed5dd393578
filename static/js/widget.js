// A club's widget in a frame on another site tells the framing page how tall it is, as
// {bummerl: "height", height: <CSS pixels>}, once loaded and again whenever its height
// changes (a narrower frame wraps more lines). The snippet on the members page sets the
// frame's height from it, so the widget never scrolls inside a box of fixed height.
// Opened on its own (not in a frame) it says nothing.
(function () {
  if (window.parent === window) return;
  var told = -1;
  function tell() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === told) return;
    told = height;
    window.parent.postMessage({ bummerl: "height", height: height }, "*");
  }
  window.addEventListener("load", function () {
    told = -1;
    tell();
  });
  window.addEventListener("resize", tell);
  if (window.ResizeObserver) new ResizeObserver(tell).observe(document.documentElement);
})();
