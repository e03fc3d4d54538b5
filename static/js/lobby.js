// The lobby (templates/games/lobby.html): its lists (open challenges, who is online, your
// challenges) are fetched again as an HTML fragment and swapped in when the lobby's socket
// (live.js; games/consumers.py LobbyConsumer) says they changed (a challenge posted, taken or
// withdrawn, a player come online), and every 20 s in any case (players who left, a page
// without a socket); never while a button of theirs has the focus. The forms post without
// script.
(function () {
  "use strict";
  var root = document.getElementById("lobby-live");
  if (!root) return;
  var REFRESH_MS = 20000;

  function refresh() {
    if (document.hidden || root.contains(document.activeElement)) return false;
    return fetch(root.dataset.url, {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
    })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) { root.innerHTML = html; });
  }

  window.setInterval(function () {
    var answer = refresh();
    if (answer) answer.catch(function () { /* the next refresh tries again */ });
  }, REFRESH_MS);
  if (root.dataset.socket && window.TablaLive) {
    var first = true;
    window.TablaLive.follow(root.dataset.socket, function () {
      if (first) { first = false; return null; } // the hello: the page is that version
      return refresh();
    });
  }
})();
