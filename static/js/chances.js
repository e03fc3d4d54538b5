// Match page, for those who may see the chances (games/chances.py; docs/analysis.md "On the
// site"): the chance bar ("Ana 64 %") and a line graph of player one's chance over the match,
// fetched from the API's chances endpoint when the page loads and again after every update of
// the match (match.js's "tabla:updated", which follows the socket's push of a move): after the
// first answer, only the points after those it holds (?after= the answer's cursor). The section
// is in the page only when the server offers it: never to a player of a match in progress, never
// without an evaluator (match.js brings it in when the match ends while the page is open). No
// inline script or style: the bar's width is set through the CSSOM.
// The card goes where a spectator looks, with the board: to the top of the live part's side
// column, beside the board on a wide screen and right under it on a phone; match.js replaces
// that part at every update, so the card is put back there after each.
(function () {
  "use strict";
  var section = document.getElementById("chances");
  if (!section) return;
  var url = section.dataset.chancesUrl;
  var live = document.getElementById("match-live");
  var fetching = null;
  var again = false;
  var points = []; // the points drawn: the whole series, then the later ones appended
  var cursor = ""; // what the last answer gave, for ?after= (docs/decisions.md D160)
  // At most the newest CHANCES_MAX_POINTS, as a whole answer holds (games/chances.py).
  var most = parseInt(section.dataset.chancesMax, 10) || 0;

  function percent(value) { return Math.round(value * 100) + " %"; }

  // "Ana 64 %": the name, then the figure in a span that does not wrap (.chance-percent), so
  // that the sign never goes to a line of its own on a phone.
  function label(node, name, value) {
    var figure = document.createElement("span");
    figure.className = "chance-percent";
    figure.textContent = percent(value);
    node.replaceChildren(name + " ", figure);
  }

  function place() {
    var side = live && live.querySelector(".match-grid > .side");
    if (side) {
      if (side.firstElementChild !== section) side.prepend(section);
    } else if (live && section.parentNode !== live.parentNode) {
      live.after(section);
    }
  }

  function draw(data) {
    var current = data.current;
    if (!current) { section.hidden = true; return; }
    var chance = current.bar.chance;
    label(section.querySelector("[data-chance-one-label]"), section.dataset.one, chance);
    label(section.querySelector("[data-chance-two-label]"), section.dataset.two, 1 - chance);
    section.querySelector("[data-chance-one]").style.width = (chance * 100).toFixed(1) + "%";
    points = data.incremental ? points.concat(data.points) : data.points;
    if (most && points.length > most) points = points.slice(points.length - most);
    cursor = data.cursor || "";
    var last = Math.max(points.length - 1, 1);
    var line = points.map(function (point, index) {
      return (index * 300 / last).toFixed(1) + "," + ((1 - point.match) * 80).toFixed(1);
    });
    section.querySelector("[data-chance-line]").setAttribute("points", line.join(" "));
    section.querySelector("[data-chance-note]").textContent =
      (section.dataset.game + " " + current.game) + (data.behind ? " \u00b7 " + section.dataset.behind : "");
    section.hidden = false;
  }

  function load() {
    if (fetching) { again = true; return; }
    var asked = cursor ? url + (url.indexOf("?") === -1 ? "?" : "&") + "after=" +
      encodeURIComponent(cursor) : url;
    fetching = window.fetch(asked, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) { section.hidden = true; return null; }
        return response.json();
      })
      .then(function (data) { if (data) draw(data); })
      .catch(function () { /* the next update tries again */ })
      .then(function () {
        fetching = null;
        if (again) { again = false; load(); }
      });
  }

  place();
  load();
  document.addEventListener("tabla:updated", function () {
    place();
    load();
  });
})();
