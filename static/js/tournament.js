// Tournament page: click a player to highlight their path through the bracket; sort standings;
// live updates by polling the state endpoint with If-None-Match and swapping in the fragment,
// pushed over a WebSocket instead while one is open (live.js).
// The highlighted player and the chosen sort order are applied again after each swap.
// Connector lines from each match to the match its winner goes to (same section only) are
// drawn into each bracket's SVG overlay from the boxes' positions, and drawn again whenever the
// layout may have moved: on resize, once fonts are in, and after each swap. A bracket wider than
// the screen gets its scroll cue (a fade at a clipped edge, a "scroll →" hint) at those times
// and as it scrolls.
// A Start button starts its match through the REST API (session cookie + CSRF header), then
// opens the match page, where the game is under way.
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
    markConnectors();
  }

  // --- connector lines --------------------------------------------------------------------

  var SVG_NS = "http://www.w3.org/2000/svg";

  function matchesByKey(bracket) {
    var byKey = {};
    bracket.querySelectorAll(".bracket-match[data-key]").forEach(function (node) {
      byKey[node.dataset.key] = node;
    });
    return byKey;
  }

  // A connector is on the highlighted path when the player is in both matches: within one
  // section that means they won the first one and went on to the second.
  function markConnectors() {
    root.querySelectorAll(".bracket").forEach(function (bracket) {
      var svg = bracket.querySelector("svg.bracket-lines");
      if (!svg) return;
      var byKey = matchesByKey(bracket);
      var onPath = [];
      Array.prototype.slice.call(svg.querySelectorAll("path")).forEach(function (path) {
        var from = byKey[path.dataset.from], to = byKey[path.dataset.to];
        var on = Boolean(from && to && from.classList.contains("on-path") && to.classList.contains("on-path"));
        path.classList.toggle("on-path", on);
        if (on) onPath.push(path);
      });
      // Drawn last, so the accent line covers the grey one where two connectors meet.
      onPath.forEach(function (path) { svg.appendChild(path); });
    });
  }

  function drawConnectors() {
    root.querySelectorAll(".bracket").forEach(function (bracket) {
      var svg = bracket.querySelector("svg.bracket-lines");
      if (!svg) return;
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      // Coordinates relative to the bracket's scrolled content, where the SVG sits.
      var box = bracket.getBoundingClientRect();
      var dx = bracket.scrollLeft - box.left - bracket.clientLeft;
      var dy = bracket.scrollTop - box.top - bracket.clientTop;
      var byKey = matchesByKey(bracket);
      bracket.querySelectorAll(".bracket-match[data-winner-to]").forEach(function (node) {
        var next = byKey[node.dataset.winnerTo];
        if (!next) return; // the winner goes on in another section
        var a = node.getBoundingClientRect(), b = next.getBoundingClientRect();
        if (!a.width || !b.width || b.left <= a.right) return; // hidden, or not to the right
        var x1 = Math.round(a.right + dx), y1 = Math.round(a.top + a.height / 2 + dy);
        var x2 = Math.round(b.left + dx), y2 = Math.round(b.top + b.height / 2 + dy);
        // Turn halfway across the gap after this round's column, even when the next match
        // is further right than the next column.
        var column = node.closest(".bracket-round");
        var after = column && column.nextElementSibling;
        var gapEnd = after ? after.getBoundingClientRect().left + dx : x2;
        var xm = Math.round((x1 + Math.min(gapEnd, x2)) / 2);
        var path = document.createElementNS(SVG_NS, "path");
        path.setAttribute("d", "M" + x1 + " " + y1 + "H" + xm + "V" + y2 + "H" + x2);
        path.dataset.from = node.dataset.key;
        path.dataset.to = next.dataset.key;
        svg.appendChild(path);
      });
    });
    markConnectors();
  }

  // --- scroll cues -----------------------------------------------------------------------

  // A section is "overflow-right" while its bracket hides more to the right, "overflow-left"
  // once scrolled away from the start (the stylesheet draws the cues).
  function markOverflow() {
    // A bracket's section, and a standings table wider than the screen (its tie-break columns).
    root.querySelectorAll(".bracket-section, .scroll-cue").forEach(function (section) {
      var bracket = section.querySelector(".bracket, .table-scroll");
      if (!bracket) return;
      var hidden = bracket.scrollWidth - bracket.clientWidth;
      section.classList.toggle("overflow-left", hidden > 1 && bracket.scrollLeft > 1);
      section.classList.toggle("overflow-right", hidden > 1 && bracket.scrollLeft < hidden - 1);
    });
  }

  function layout() {
    drawConnectors();
    markOverflow();
  }

  var drawPending = false;
  function scheduleDraw() {
    if (drawPending) return;
    drawPending = true;
    window.requestAnimationFrame(function () {
      drawPending = false;
      layout();
    });
  }

  var resizeObserver = window.ResizeObserver ? new window.ResizeObserver(scheduleDraw) : null;
  function watchLayout() {
    if (!resizeObserver) return;
    resizeObserver.disconnect();
    resizeObserver.observe(root);
    root.querySelectorAll(".bracket-round-matches").forEach(function (node) {
      resizeObserver.observe(node);
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

  // --- start a match ----------------------------------------------------------------------

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  function startMatch(button) {
    var error = button.parentNode.querySelector("[data-start-error]");
    button.disabled = true;
    if (error) error.hidden = true;
    fetch(button.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: "{}"
    }).then(function (response) {
      if (response.ok) { window.location.assign(button.dataset.matchUrl); return null; }
      return response.json().catch(function () { return {}; }).then(function (data) {
        var words = document.body.dataset.errorStatus || "Error %(status)s";
        throw new Error(data.detail || words.replace("%(status)s", String(response.status)));
      });
    }).catch(function (problem) {
      button.disabled = false;
      if (error) { error.textContent = problem.message; error.hidden = false; }
    });
  }

  root.addEventListener("click", function (event) {
    var start = event.target.closest("button[data-action=start]");
    if (start) {
      startMatch(start);
      return;
    }
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
        layout();
        watchLayout();
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
    if (document.hidden || live.connected()) return schedule();
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

  layout();
  watchLayout();
  // Scroll events do not bubble: the capturing listener hears every bracket's.
  root.addEventListener("scroll", markOverflow, true);
  window.addEventListener("resize", scheduleDraw);
  window.addEventListener("load", scheduleDraw);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(scheduleDraw);

  var live = window.TablaLive.follow(root.dataset.socketUrl, function (fresh) {
    if (fresh === etag) return null;
    if (document.hidden) return false;
    return refresh().then(function () { etag = fresh; });
  });
  schedule();
})();
