// Match page: replay through the turn log, live updates by polling the state endpoint with
// If-None-Match, and playing through the REST API (session cookie + CSRF header): roll, play
// (on the board with board_play.js, or from the list of legal plays), and the doubling cube's
// double, take and drop; resigning a game (a native <dialog> asks which kind first); starting a
// scheduled match; claiming a match without a clock after the opponent's long inactivity.
// While a WebSocket is open (live.js), updates are pushed instead and nothing is polled.
// When the running clock reaches 0:00 (as clock.js counts it, from the page's #clock-data) the
// page asks the state endpoint once, and again every half second for a while if the server's
// clock is a little behind: that read ends the match on time (the server's match_time_out), so
// its push reaches every other page of the match too, with no beat and no reload
// (docs/decisions.md D95).
// The page's parts outside the live fragment (the Chances and Review cards, and chances.js) are
// the page's as it was loaded: when an update shows the match's status changed (a match ended
// while the page was open), the page is fetched once more and the parts it lacks are put in, no
// reload (docs/decisions.md D161).
(function () {
  "use strict";
  var root = document.getElementById("match-live");
  if (!root) return;
  var POLL_MS = 1500;
  var CUBE_ACTIONS = ["double", "take", "drop"];
  var CLOCK_ASK_AFTER_MS = 100; // past the page's 0:00, so the server's deadline has passed
  var CLOCK_RETRY_MS = 500;
  var CLOCK_TRIES = 10; // 0:00 plus up to 4.5 s: a server clock that is a little behind
  var etag = root.dataset.etag || null;
  var asked = 0; // fragments asked for (refresh), and actions sent, in order
  var shown = 0; // the newest of them shown, or sent: older fragments are not shown any more
  var busy = false;
  var replay = null;
  var clockTimer = null;

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  function readJSON(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  // --- replay ------------------------------------------------------------------------------

  // ``frames``: the whole replay, when the fragment carried only its new frames (refresh).
  function setupReplay(frames) {
    frames = frames || readJSON("replay-data");
    var group = root.querySelector("[data-board-pieces]");
    var range = root.querySelector("[data-replay-range]");
    if (!frames || !group || !range) { replay = null; return; }
    var cube = root.querySelector("[data-board-cube]");
    replay = {
      frames: frames,
      group: group,
      range: range,
      cube: cube,
      liveCube: cube ? cube.innerHTML : "",
      crawford: cube !== null && cube.querySelector(".cube.crawford") !== null,
      caption: root.querySelector("[data-replay-caption]"),
      live: group.innerHTML,
      liveCaption: root.querySelector("[data-replay-caption]").textContent,
      livePips: livePips(),
      index: frames.length
    };
  }

  function livePips() {
    var pips = {};
    root.querySelectorAll("[data-pip]").forEach(function (node) { pips[node.dataset.pip] = node.textContent; });
    return pips;
  }

  function showFrame(index) {
    if (!replay) return;
    index = Math.max(0, Math.min(replay.frames.length, index));
    replay.index = index;
    replay.range.value = index;
    var live = index === replay.frames.length;
    root.classList.toggle("replaying", !live);
    if (live) {
      replay.group.innerHTML = replay.live;
      if (replay.cube) replay.cube.innerHTML = replay.liveCube;
      replay.caption.textContent = replay.liveCaption;
      showPips(replay.livePips);
      root.dispatchEvent(new CustomEvent("tabla:live")); // the board in play draws itself again
    } else {
      window.TablaBoard.draw(replay.group, replay.frames[index].pieces);
      if (replay.cube) drawCube(replay.cube, replay.frames[index].cube, replay.crawford);
      replay.caption.textContent = replay.frames[index].caption;
      showPips(replay.frames[index].pips);
    }
    root.querySelectorAll("[data-replay-ply]").forEach(function (button) {
      var shown = !live && parseInt(button.dataset.replayPly, 10) === index;
      if (shown) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
  }

  // A link to a turn of the game (the Review card's mistakes: ?game=N#ply-P, docs/decisions.md
  // D168): the replay shows the position after that turn, with its dice and its caption, and
  // the board comes into view. Also when the link is followed on the page it points to.
  function showLinkedPly() {
    var found = /^#ply-(\d+)$/.exec(window.location.hash);
    if (!found || !replay) return;
    var ply = parseInt(found[1], 10);
    for (var index = 0; index < replay.frames.length; index++) {
      if (replay.frames[index].ply === ply) {
        showFrame(index);
        var card = root.querySelector(".board-card");
        if (card) card.scrollIntoView({ block: "start" });
        return;
      }
    }
  }

  function showPips(pips) {
    root.querySelectorAll("[data-pip]").forEach(function (node) {
      if (pips) node.textContent = pips[node.dataset.pip];
    });
  }

  // The doubling cube as it stood at a replayed turn (games/board_svg.py board_cube).
  function drawCube(layer, cube, crawford) {
    var NS = "http://www.w3.org/2000/svg";
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    if (!cube) return;
    var g = document.createElementNS(NS, "g");
    var classes = "cube" + (cube.offered ? " offered" : "") + (crawford ? " crawford" : "");
    g.setAttribute("class", classes);
    g.setAttribute("data-cube", cube.face);
    g.setAttribute("data-cube-owner", cube.owner);
    var rect = document.createElementNS(NS, "rect");
    [["x", cube.x], ["y", cube.y], ["width", cube.size], ["height", cube.size], ["rx", 5]]
      .forEach(function (pair) { rect.setAttribute(pair[0], pair[1]); });
    var text = document.createElementNS(NS, "text");
    [["x", cube.text_x], ["y", cube.text_y], ["text-anchor", "middle"]]
      .forEach(function (pair) { text.setAttribute(pair[0], pair[1]); });
    text.textContent = cube.face;
    g.appendChild(rect);
    g.appendChild(text);
    layer.appendChild(g);
  }

  function isReplaying() {
    return replay !== null && replay.index !== replay.frames.length;
  }

  // A Resign dialog open (the game's or the match's): the page is not redrawn under it (a fresh
  // fragment would close it); the version is shown once it closes (the push offers it again,
  // the poll asks again).
  function isAsking() {
    return root.querySelector("[data-resign] dialog[open]") !== null;
  }

  // --- live updates ------------------------------------------------------------------------

  // What the player had open or chosen in the list of legal plays survives a refresh.
  function listState() {
    var list = root.querySelector(".play-list");
    var chosen = root.querySelector('#play-form input[name="moves"]:checked');
    return { open: Boolean(list && list.open), chosen: chosen ? chosen.value : null };
  }

  function restoreList(state) {
    var list = root.querySelector(".play-list");
    if (list && state.open) list.open = true;
    root.querySelectorAll('#play-form input[name="moves"]').forEach(function (input) {
      if (input.value === state.chosen) input.checked = true;
    });
  }

  // What had the keyboard focus inside the page's live part, for board_play.js to give back.
  function focusState() {
    var active = document.activeElement;
    if (!active || !root.contains(active) || !active.dataset) return null;
    return {
      target: active.dataset.target || null,
      marker: active.classList.contains("destination"),
      action: active.dataset.action || null
    };
  }

  // The fragment comes with the version it shows (its ETag), which the page then holds: the
  // next poll or push of that same version fetches nothing again. An answer older than one
  // shown already, or than an action the player sent since it was asked for, is dropped: a
  // poll's fragment asked for just before a roll must not bring back the Roll button after it.
  // The page asks only for the replay frames and log rows it does not hold (X-Replay-Held: its
  // client data's replay_key; docs/decisions.md D160) and puts its own before them; a fragment
  // that follows turns the page does not hold (another game shown meanwhile) is asked for
  // again whole (``whole``). The promise answers whether the fragment was shown.
  function refresh(whole) {
    var ticket = ++asked;
    var version = null;
    var askedAt = window.performance.now();
    var client = readJSON("client-data");
    var headers = !whole && replay && client && client.replay_key
      ? { "X-Replay-Held": client.replay_key } : {};
    return fetch(root.dataset.liveUrl, { credentials: "same-origin", headers: headers })
      .then(function (response) {
        version = response.headers.get("ETag");
        return response.text();
      })
      .then(function (html) {
        if (ticket <= shown) return false;
        var box = document.createElement("template");
        box.innerHTML = html;
        var merged = merge(box.content);
        if (merged === false) return refresh(true);
        shown = ticket;
        if (version) etag = version;
        var list = listState();
        var focus = focusState();
        root.replaceChildren(box.content);
        if (merged) { // the page's own rows, before the new ones
          var log = root.querySelector(".move-log");
          log.prepend.apply(log, merged.rows);
        }
        restoreList(list);
        setupReplay(merged ? merged.frames : null);
        var updated = new CustomEvent("tabla:updated", { bubbles: true, detail: focus });
        // The fragment's clock is as of some moment between the request and its answer: the
        // clock counts from the request (clock.js), so a slow answer never shows more time
        // than the server has left.
        updated.askedAt = askedAt;
        root.dispatchEvent(updated);
        return true;
      });
  }

  // A fragment with only the new frames (its client data's replay_from > 0): the page's
  // frames and log rows before them, with the new frames after, or false when the page does
  // not hold them (another game, fewer frames); null for a whole fragment.
  function merge(fragment) {
    var node = fragment.getElementById("client-data");
    var fresh = node ? JSON.parse(node.textContent) : null;
    if (!fresh || !fresh.replay_from) return null;
    var client = readJSON("client-data");
    var from = fresh.replay_from;
    var rows = Array.prototype.slice.call(root.querySelectorAll(".move-log > li"), 0, from - 1);
    if (!replay || !client || client.game !== fresh.game || replay.frames.length < from ||
        rows.length !== from - 1 || !fragment.querySelector(".move-log")) return false;
    var added = fragment.getElementById("replay-data");
    return {
      frames: replay.frames.slice(0, from).concat(added ? JSON.parse(added.textContent) : []),
      rows: rows
    };
  }

  function poll() {
    if (busy || document.hidden || isReplaying() || isAsking() || live.connected()) return schedule();
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(root.dataset.stateUrl, { headers: headers, credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        if (response.status === 304) return null;
        var fresh = response.headers.get("ETag");
        if (etag === null || fresh === etag) { etag = fresh; return null; }
        return refresh(); // which holds the version it shows (a dropped one: asked again)
      })
      .catch(function () { /* offline for a moment: try again at the next tick */ })
      .then(schedule);
  }

  function schedule() {
    window.setTimeout(poll, POLL_MS);
  }

  // --- the clock's time-out ----------------------------------------------------------------

  // Arm a timer for the moment the running side's time (delay, then bank) is up, as read from
  // the clock data the page (or its fresh fragment) came with.
  function watchClock() {
    window.clearTimeout(clockTimer);
    var data = readJSON("clock-data");
    if (!data || !data.running || data.flagged) return;
    var left = (data.delay_left + data.remaining[data.running]) * 1000;
    clockTimer = window.setTimeout(function () { askTimeOut(1); }, left + CLOCK_ASK_AFTER_MS);
  }

  // The state endpoint ends a match whose clock has run out; a new version is shown at once
  // (unless the player is busy or replaying: the push or the poll shows it then). Its fresh
  // fragment arms the timer again (watchClock), from the server's own figures.
  function askTimeOut(attempt) {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(root.dataset.stateUrl, { headers: headers, credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        if (response.status !== 200) return false; // 304: not over yet by the server's clock
        if (busy || isReplaying() || isAsking()) return true; // the push, or the next poll, shows it
        return refresh().then(function () { return true; });
      })
      .catch(function () { return false; })
      .then(function (done) {
        if (!done && attempt < CLOCK_TRIES) {
          clockTimer = window.setTimeout(function () { askTimeOut(attempt + 1); }, CLOCK_RETRY_MS);
        }
      });
  }

  // --- the parts outside the live fragment -------------------------------------------------

  var PARTS = ["chances", "review"]; // in the page's order, the last of its content
  var statusShown = matchStatus();

  function matchStatus() {
    var badge = root.querySelector("[data-match-status]");
    return badge ? badge.dataset.matchStatus : null;
  }

  // Once for each change of status the updates show: the whole page, as a load would give it,
  // from which the parts the page lacks are taken (the server decides who sees them: the
  // chances of a finished match are everyone's, its review too), with the scripts it lacks.
  function followStatus() {
    var status = matchStatus();
    if (status === null || status === statusShown) return;
    statusShown = status;
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var fresh = new window.DOMParser().parseFromString(html, "text/html");
        var added = false;
        PARTS.forEach(function (id) {
          var part = fresh.getElementById(id);
          if (!part || document.getElementById(id)) return;
          root.parentNode.appendChild(document.adoptNode(part));
          added = true;
        });
        if (!added) return;
        var held = {};
        document.querySelectorAll("script[src]").forEach(function (script) {
          held[script.getAttribute("src")] = true;
        });
        fresh.querySelectorAll("script[src]").forEach(function (script) {
          var src = script.getAttribute("src");
          if (held[src]) return;
          var run = document.createElement("script");
          run.src = src;
          document.body.appendChild(run);
        });
        showReviewLink();
      })
      .catch(function () { /* the page as it is: a reload shows the rest */ });
  }

  // The header's link to the Review card, once the page has one.
  function showReviewLink() {
    var link = root.querySelector("[data-review-link]");
    if (link) link.hidden = !document.getElementById("review");
  }

  // --- playing -----------------------------------------------------------------------------

  // An answer with no message of its own: the page's words (<body data-error-status>).
  function statusText(status) {
    var words = document.body.dataset.errorStatus || "Error %(status)s";
    return words.replace("%(status)s", String(status));
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body || {})
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) {
          throw new Error(data.detail ||
            (Object.keys(data).length ? JSON.stringify(data) : statusText(response.status)));
        }
        return data;
      });
    });
  }

  function act(request, errorSelector) {
    busy = true;
    shown = ++asked; // a fragment asked for before this action would show the page before it
    var error = root.querySelector(errorSelector);
    if (error) error.hidden = true;
    return request
      .then(refresh)
      .catch(function (problem) {
        var target = root.querySelector(errorSelector);
        if (target) { target.textContent = problem.message; target.hidden = false; }
      })
      .then(function () { busy = false; });
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !root.contains(button)) return;
    var client = readJSON("client-data");
    if (button.dataset.replayStep && replay) {
      var step = { first: -Infinity, prev: replay.index - 1, next: replay.index + 1, last: Infinity };
      showFrame(step[button.dataset.replayStep] === -Infinity ? 0
        : step[button.dataset.replayStep] === Infinity ? replay.frames.length
        : step[button.dataset.replayStep]);
    } else if (button.dataset.replayPly) {
      showFrame(parseInt(button.dataset.replayPly, 10));
    } else if (button.dataset.action === "roll" && client) {
      button.disabled = true;
      act(post(client.roll_url), "[data-play-error]");
    } else if (CUBE_ACTIONS.indexOf(button.dataset.action) !== -1 && client) {
      var panel = root.querySelectorAll("#play-panel button");
      panel.forEach(function (b) { b.disabled = true; });
      act(post(client[button.dataset.action + "_url"], { ply: client.ply }), "[data-play-error]")
        .then(function () { panel.forEach(function (b) { b.disabled = false; }); });
    } else if (button.dataset.action === "confirm") {
      button.disabled = true;
      act(post(button.dataset.url), "[data-report-error]");
    } else if (button.dataset.action === "dispute") {
      // The reason typed next to the button goes to the organiser who decides.
      var reason = button.parentNode.querySelector("[data-dispute-reason]");
      button.disabled = true;
      act(post(button.dataset.url, { reason: reason ? reason.value.trim() : "" }),
        "[data-report-error]");
    } else if (button.dataset.action === "accept" || button.dataset.action === "decline") {
      button.disabled = true;
      act(post(button.dataset.url), "[data-challenge-error]");
    } else if (button.dataset.action === "resign-open") {
      // The game's dialog, or the match's (aria-controls names it).
      var dialog = document.getElementById(button.getAttribute("aria-controls"));
      dialog.querySelector("[data-resign-error]").hidden = true;
      dialog.showModal();
    } else if (button.dataset.action === "resign") {
      // Only a dialog's own Resign button resigns: its Cancel, Esc and Enter close it. The
      // game's posts the kind chosen; the match's has none to post.
      var form = button.closest("form");
      var kind = form.querySelector('input[name="kind"]:checked');
      var buttons = form.querySelectorAll("button");
      buttons.forEach(function (b) { b.disabled = true; });
      act(post(button.dataset.url, kind ? { kind: kind.value } : {}),
        "#" + button.closest("dialog").id + " [data-resign-error]")
        .then(function () { buttons.forEach(function (b) { b.disabled = false; }); });
    } else if (button.dataset.action === "claim") {
      button.disabled = true;
      act(post(button.dataset.url), "[data-claim-error]");
    } else if (button.dataset.action === "start") {
      button.disabled = true;
      act(post(button.dataset.url), "[data-start-error]")
        .then(function () { button.disabled = false; });
    }
  });

  root.addEventListener("input", function (event) {
    if (event.target.matches("[data-replay-range]")) showFrame(parseInt(event.target.value, 10));
  });

  root.addEventListener("submit", function (event) {
    var form = event.target;
    var client = readJSON("client-data");
    if (form.id === "play-form" && client) {
      event.preventDefault();
      var choice = form.querySelector('input[name="moves"]:checked');
      if (!choice) return;
      form.querySelector('button[type="submit"]').disabled = true;
      var moves = choice.value === "" ? [] : choice.value;
      act(post(client.plays_url, { ply: client.ply, moves: moves }), "[data-play-error]");
    } else if (form.id === "report-form") {
      event.preventDefault();
      var result = form.elements.result.value.split(":");
      var winner = form.elements.winner.value;
      act(post(form.dataset.url, {
        winner: winner ? parseInt(winner, 10) : null,
        kind: result[0],
        points: parseInt(result[1], 10)
      }), "[data-report-error]");
    } else if (form.id === "match-report-form") {
      event.preventDefault();
      act(post(form.dataset.url, {
        scope: "match",
        score_one: parseInt(form.elements.score_one.value, 10),
        score_two: parseInt(form.elements.score_two.value, 10)
      }), "[data-report-error]");
    }
  });

  document.addEventListener("keydown", function (event) {
    if (!replay || event.target.matches("input, select, textarea") || isAsking()) return;
    if (event.key === "ArrowLeft") showFrame(replay.index - 1);
    if (event.key === "ArrowRight") showFrame(replay.index + 1);
  });

  // A pushed version is shown as a poll's 200 would be: the fragment fetched once.
  var live = window.TablaLive.follow(root.dataset.socketUrl, function (fresh) {
    if (fresh === etag) return null;
    if (busy || document.hidden || isReplaying() || isAsking()) return false;
    return refresh();
  });

  setupReplay();
  showLinkedPly();
  window.addEventListener("hashchange", showLinkedPly);
  watchClock();
  showReviewLink();
  document.addEventListener("tabla:updated", watchClock);
  document.addEventListener("tabla:updated", showReviewLink);
  document.addEventListener("tabla:updated", followStatus);
  if (window.TablaBoardPlay) {
    window.TablaBoardPlay.attach(root, {
      submit: function (moves) {
        var client = readJSON("client-data");
        return act(post(client.plays_url, { ply: client.ply, moves: moves }), "[data-play-error]");
      },
      isReplaying: isReplaying
    });
  }
  schedule();
})();
