// Tournament page: click a player to highlight their path through the bracket; sort standings.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var player = event.target.closest(".bracket-player[data-entry]");
    if (player) {
      var entry = player.dataset.entry;
      var on = !player.classList.contains("highlight");
      document.querySelectorAll(".bracket-player.highlight, .bracket-match.on-path").forEach(function (node) {
        node.classList.remove("highlight", "on-path");
      });
      if (!on) return;
      document.querySelectorAll('.bracket-player[data-entry="' + entry + '"]').forEach(function (node) {
        node.classList.add("highlight");
        node.closest(".bracket-match").classList.add("on-path");
      });
      return;
    }
    var header = event.target.closest("table[data-sortable] th[data-sort]");
    if (!header) return;
    var table = header.closest("table");
    var column = Array.prototype.indexOf.call(header.parentNode.children, header);
    var ascending = header.dataset.order !== "asc";
    table.querySelectorAll("th").forEach(function (th) { delete th.dataset.order; });
    header.dataset.order = ascending ? "asc" : "desc";
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    rows.sort(function (a, b) {
      var x = a.cells[column].textContent.trim(), y = b.cells[column].textContent.trim();
      var order = header.dataset.sort === "number"
        ? (parseFloat(x.replace("−", "-")) || 0) - (parseFloat(y.replace("−", "-")) || 0)
        : x.localeCompare(y);
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { table.tBodies[0].appendChild(row); });
  });
})();
