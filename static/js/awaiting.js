// Every page of a signed-in user (templates/base.html): asks /lobby/ping.json when the page
// loads and every 20 s while it is visible, which marks the player as online (the lobby's
// list) and answers how many matches wait for them: the header's badge shows that number
// (hidden at 0). Where the server has a channel layer the page also opens its user's socket
// (live.js; games/consumers.py AwaitingConsumer): every message on it (a turn, a report, a
// challenge in one of the user's matches) asks again at once, so the badge changes without
// waiting for the next ping. On the home page a new count fetches "Your matches" again.
// docs/decisions.md D92. The same answer counts the unread notifications, shown after the
// header's "Notifications" link as "(N)" (hidden at 0): the badge stays the one count of
// what waits, the link's number what is new to read (D115).
(function () {
  "use strict";
  var badge = document.querySelector("[data-awaiting-badge]");
  if (!badge) return;
  var PING_MS = 20000;

  function show(count) {
    badge.textContent = count > 0 ? String(count) : "";
    badge.hidden = !(count > 0);
    badge.dataset.awaiting = String(count);
    var section = document.getElementById("your-matches");
    if (section && section.dataset.count !== String(count)) {
      section.dataset.count = String(count); // asked once for this count
      refreshSection(section);
    }
  }

  var unreadCount = document.querySelector("[data-unread-count]");
  function showUnread(count) {
    if (!unreadCount) return;
    unreadCount.textContent = count > 0 ? " (" + count + ")" : "";
    unreadCount.hidden = !(count > 0);
  }

  // The home page's "Your matches", fetched again when the count changed under it.
  function refreshSection(section) {
    fetch(window.location.pathname, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        var fresh = new window.DOMParser().parseFromString(html, "text/html")
          .getElementById("your-matches");
        if (fresh) section.replaceWith(fresh);
      })
      .catch(function () { /* the next change tries again */ });
  }

  function ping() {
    return fetch(badge.dataset.url, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (body) {
        show(body.awaiting || 0);
        showUnread(body.unread || 0);
      });
  }

  function quietPing() {
    if (!document.hidden) ping().catch(function () { /* the next ping tries again */ });
  }

  quietPing();
  window.setInterval(quietPing, PING_MS);
  document.addEventListener("visibilitychange", quietPing);
  if (badge.dataset.socket && window.TablaLive) {
    window.TablaLive.follow(badge.dataset.socket, function () { return ping(); });
  }
})();
