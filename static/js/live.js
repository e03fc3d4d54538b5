// Pushed updates: a page follows its match or tournament over a WebSocket (config/asgi.py) and
// falls back to polling its state endpoint while no socket is open.
//
//   var live = TablaLive.follow(path, show);
//
// opens a socket to `path` on this host (ws: or wss:, as the page). Each message names the
// version (the state endpoint's ETag) the match or tournament has now: the first one as soon as
// the socket opens, then one after every change. `show(etag)` is offered the newest version;
// it answers a promise that settles once the page shows it (its fragment fetched), false when
// the page cannot take it now (busy, hidden, replaying: it is offered again a moment later), or
// anything else when there is nothing to do. One show runs at a time; a version that comes in
// meanwhile is offered when it settles, and a failed one again after a moment.
//
// `live.connected()` is true while the socket is open: the page polls only while it is false,
// i.e. until the socket opens, and whenever it cannot be opened (no ASGI server, refused) or
// has dropped. It is opened again after 1 s, then 2, 4, ... up to 30 s between tries.
//
// While open, the socket sends "ping" every minute: the server reads nothing from it but closes
// a socket whose client sent nothing for SOCKET_IDLE_SECONDS (5 minutes; common/sockets.py).
// A page whose timers stopped (a frozen background tab) loses its socket and reopens it when
// it wakes.
(function () {
  "use strict";
  var FIRST_DELAY = 1000;
  var MAX_DELAY = 30000;
  var RETRY_SHOW = 1000;
  var HEARTBEAT = 60000;

  function follow(path, show) {
    var open = false;
    var delay = FIRST_DELAY;
    var newest = null; // the newest version a message named
    var showing = false;
    var retry = null;

    function offer() {
      if (showing || newest === null) return;
      window.clearTimeout(retry);
      var version = newest;
      var answer = show(version);
      if (answer === false) { retry = window.setTimeout(offer, RETRY_SHOW); return; }
      if (!answer || typeof answer.then !== "function") return;
      showing = true;
      answer.then(function () {
        showing = false;
        if (newest !== version) offer();
      }, function () {
        showing = false;
        retry = window.setTimeout(offer, RETRY_SHOW);
      });
    }

    function connect() {
      var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      var socket;
      try {
        socket = new window.WebSocket(scheme + window.location.host + path);
      } catch (error) {
        reconnectLater();
        return;
      }
      var heartbeat = null;
      socket.onopen = function () {
        open = true;
        heartbeat = window.setInterval(function () {
          if (socket.readyState === window.WebSocket.OPEN) socket.send("ping");
        }, HEARTBEAT);
      };
      socket.onmessage = function (event) {
        var message;
        try { message = JSON.parse(event.data); } catch (error) { return; }
        delay = FIRST_DELAY; // the server answers: start again from a short wait next time
        if (message.version) {
          newest = '"' + message.version + '"';
          offer();
        }
      };
      socket.onclose = function () {
        open = false;
        window.clearInterval(heartbeat);
        reconnectLater();
      };
    }

    function reconnectLater() {
      window.setTimeout(connect, delay);
      delay = Math.min(delay * 2, MAX_DELAY);
    }

    if (path && window.WebSocket) connect();
    return { connected: function () { return open; } };
  }

  window.TablaLive = { follow: follow };
})();
