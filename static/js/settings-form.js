// The tournament settings form (templates/tournaments/_settings_form.html): only the chosen
// format's settings show. A setting of another format is hidden and disabled, so desk.js leaves
// it out of the request and the tournament keeps its stored value.
(function () {
  "use strict";

  function showFormat(form) {
    var select = form.querySelector('select[name="format"]');
    if (!select) return;
    Array.prototype.forEach.call(form.querySelectorAll("[data-formats]"), function (node) {
      var shown = node.dataset.formats.split(" ").indexOf(select.value) >= 0;
      node.hidden = !shown;
      Array.prototype.forEach.call(node.querySelectorAll("input, select, textarea"), function (field) {
        field.disabled = !shown;
      });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("form[data-settings-form]"), function (form) {
    showFormat(form);
    form.addEventListener("change", function (event) {
      if (event.target.name === "format") showFormat(form);
    });
  });
})();
