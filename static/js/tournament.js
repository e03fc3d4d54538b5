// Tournament page: click a player to highlight their path through the bracket; sort standings;
// live updates by polling the state endpoint with If-None-Match and swapping in the fragment.
// The highlighted player and the chosen sort order are applied again after each swap.
(function () {
  "use strict";
  var root = document.getElementById("tournament-live");
  if (!root) return;
  var POLL_MS = 2000;
  var etag = root.dataset.etag || null;
  var highlighted = null; // entry id of the player whose path is shown
  var sorting = null; // {column, ascending} of the standings table

  // --- highlight a player's path ----------------------------------------------------------

  function highlight(entry) {
    highlighted = entry;
    root.querySelectorAll(".bracket-player.highlight, .bracket-match.on-path").forEach(function (node) {
      node.classList.remove("highlight", "on-path");
    });
    if (entry === null) return;
    root.querySelectorAll('.bracket-player[data-entry="' + entry + '"]').forEach(function (node) {
      node.classList.add("highlight");
      node.closest(".bracket-match").classList.add("on-path");
    });
  }

  // --- sort the standings -----------------------------------------------------------------

  function sortTable(table, column, ascending) {
    var header = table.tHead.rows[0].cells[column];
    if (!header) return;
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
  }

  root.addEventListener("click", function (event) {
    var player = event.target.closest(".bracket-player[data-entry]");
    if (player) {
      highlight(player.classList.contains("highlight") ? null : player.dataset.entry);
      return;
    }
    var header = event.target.closest("table[data-sortable] th[data-sort]");
    if (!header) return;
    var column = Array.prototype.indexOf.call(header.parentNode.children, header);
    sorting = { column: column, ascending: header.dataset.order !== "asc" };
    sortTable(header.closest("table"), sorting.column, sorting.ascending);
  });

  // --- live updates -----------------------------------------------------------------------

  function refresh() {
    return fetch(root.dataset.liveUrl, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        root.innerHTML = html;
        highlight(highlighted);
        if (sorting) {
          root.querySelectorAll("table[data-sortable]").forEach(function (table) {
            sortTable(table, sorting.column, sorting.ascending);
          });
        }
        root.dispatchEvent(new CustomEvent("tabla:updated", { bubbles: true }));
      });
  }

  function poll() {
    if (document.hidden) return schedule();
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(root.dataset.stateUrl, { headers: headers, credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        if (response.status === 304 || !response.ok) return null;
        var fresh = response.headers.get("ETag");
        if (etag === null || fresh === etag) { etag = fresh; return null; }
        // Take the new version only once its fragment is in, so a failed fetch is retried.
        return refresh().then(function () { etag = fresh; });
      })
      .catch(function () { /* offline for a moment: try again at the next tick */ })
      .then(schedule);
  }

  function schedule() {
    window.setTimeout(poll, POLL_MS);
  }

  schedule();
})();
