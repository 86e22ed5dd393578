// A link to hand on (the entry link page, the members page's invitations): copy it
// (Clipboard API; else the link is selected in its field for the phone's own copy
// menu) and hand it to the phone's share sheet (Web Share API; the button stays hidden
// where there is none). Each ``[data-share]`` box holds one link in its ``input.copy``.
// Without JavaScript the field with the link is all there is, and it is enough.
(function () {
  function setUp(box) {
    var field = box.querySelector("input.copy");
    var copy = box.querySelector("[data-copy]");
    var share = box.querySelector("[data-share-sheet]");
    var said = box.querySelector("[data-said]");
    if (!field) return;
    function say(text) {
      if (said) said.textContent = text;
    }
    function selectField() {
      field.focus();
      field.select();
      field.setSelectionRange(0, field.value.length);
    }
    if (copy && !copy.disabled) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(field.value).then(
            function () {
              say(copy.dataset.done);
            },
            function () {
              selectField();
              say(copy.dataset.manual);
            }
          );
        } else {
          selectField();
          say(copy.dataset.manual);
        }
      });
    }
    if (share && !share.disabled && navigator.share) {
      share.hidden = false;
      share.addEventListener("click", function () {
        navigator.share({ title: share.dataset.title, url: field.value }).catch(function () {
          // Closed without sharing: nothing to say.
        });
      });
    }
    field.addEventListener("focus", function () {
      field.select();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-share]").forEach(setUp);
  });
})();
