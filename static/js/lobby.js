// The lobby (templates/games/lobby.html): its lists (open challenges, who is online, your
// challenges) are fetched again every 20 s as an HTML fragment and swapped in, unless a button
// of theirs has the focus. The forms post without script.
(function () {
  "use strict";
  var root = document.getElementById("lobby-live");
  if (!root) return;
  var REFRESH_MS = 20000;

  function refresh() {
    if (document.hidden || root.contains(document.activeElement)) return;
    fetch(root.dataset.url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) { root.innerHTML = html; })
      .catch(function () { /* the next refresh tries again */ });
  }

  setInterval(refresh, REFRESH_MS);
})();
