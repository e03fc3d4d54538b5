// The board on which the player to move plays: click or tap a checker (or the bar), then one of
// the lit destinations; undo; submit. Every legal step comes from the engine's step graph
// (games/engine/step_graph.py, in the page's #board-play-data): the page applies no rule of its
// own, it only follows the graph. A forced play is played and sent at once; when a move leaves a
// single legal way on, the rest is filled in and waits for Submit (docs/decisions.md D45-D47).
// match.js attaches it and sends the play. A practice match's hint (practice.js) is drawn on
// the same board: an arrow per step of the suggested play, from the checker to where it goes,
// until the player moves or the decision changes (docs/decisions.md D146). No build step.
(function () {
  "use strict";
  var MARKER_RADIUS = 42; // 84 board units: 45 px across on a 390 px phone
  var FORCED_DELAY_MS = 500; // a forced play stays on the board this long before it is sent
  var root = null;
  var hooks = null;
  var play = null; // the decision on the board, or null
  var kept = { key: null, actions: [] }; // the moves made, kept across live refreshes
  var notice = ""; // said once after the next refresh (a forced play that was sent)
  var hinted = null; // the hint on the board: { key: the decision's, play: a play's index }

  function readJSON(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  }

  // --- the graph ---------------------------------------------------------------------------

  function Graph(data) {
    this.data = data;
    this.states = data.states;
    this.plays = [];
  }

  Graph.prototype.board = function (index) {
    var state = this.states[index];
    var points = this.data.points.map(function (stack, i) {
      var changed = state.changes[String(i + 1)];
      return changed === undefined ? stack : changed;
    });
    return { points: points, bar: state.bar, off: state.off };
  };

  // The legal plays still reachable from a state (their indexes), remembered per state.
  Graph.prototype.reachable = function (index) {
    if (this.plays[index]) return this.plays[index];
    var state = this.states[index];
    var found = {};
    if (state.play !== null) found[state.play] = true;
    var graph = this;
    state.steps.forEach(function (step) {
      Object.keys(graph.reachable(step[4])).forEach(function (p) { found[p] = true; });
    });
    this.plays[index] = found;
    return found;
  };

  // Steps from a state to one that completes ``target`` (a play index).
  Graph.prototype.pathTo = function (index, target) {
    var state = this.states[index];
    if (state.play === target) return [];
    for (var i = 0; i < state.steps.length; i++) {
      var step = state.steps[i];
      if (this.reachable(step[4])[target]) return [step].concat(this.pathTo(step[4], target));
    }
    return null;
  };

  Graph.prototype.sources = function (index) {
    var seen = [];
    this.states[index].steps.forEach(function (step) {
      if (seen.indexOf(String(step[1])) === -1) seen.push(String(step[1]));
    });
    return seen;
  };

  // Where the checker on ``source`` may go, in one or more steps of that same checker: a map of
  // target -> steps. Only the fewest steps count; two ways there that leave different boards
  // (one hits on the way) are not offered as one click, the player makes the steps one by one;
  // two ways that differ only in the die used take the smaller die, keeping the larger (D46).
  Graph.prototype.destinations = function (index, source) {
    var graph = this;
    var ways = {};
    var queue = [{ state: index, at: source, path: [] }];
    var seen = {};
    while (queue.length) {
      var item = queue.shift();
      graph.states[item.state].steps.forEach(function (step) {
        if (String(step[1]) !== item.at) return;
        var path = item.path.concat([step]);
        var target = String(step[2]);
        var known = ways[target];
        if (known && known[0].length < path.length) return;
        (ways[target] = known || []).push(path);
        var key = step[4] + ":" + target;
        if (target !== "off" && !seen[key]) {
          seen[key] = true;
          queue.push({ state: step[4], at: target, path: path });
        }
      });
    }
    var chosen = [];
    Object.keys(ways).forEach(function (target) {
      var paths = ways[target];
      var boards = {};
      paths.forEach(function (path) { boards[JSON.stringify(graph.board(path[path.length - 1][4]))] = true; });
      if (Object.keys(boards).length > 1) return;
      var path = paths.slice().sort(function (a, b) { return diceUsed(a) - diceUsed(b); })[0];
      chosen.push({ target: target, path: path });
    });
    // Fewest steps first, then the smaller die: the order of Tab among the markers.
    return chosen.sort(function (a, b) {
      return a.path.length - b.path.length || diceUsed(a.path) - diceUsed(b.path);
    });
  };

  function wayTo(destinations, target) {
    var found = destinations.filter(function (way) { return way.target === target; })[0];
    return found ? found.path : null;
  }

  function diceUsed(path) {
    return path.reduce(function (sum, step) { return sum + step[3]; }, 0);
  }

  // --- the decision on the board -----------------------------------------------------------

  function Play(data) {
    this.data = data;
    this.graph = new Graph(data.graph);
    this.geo = data.geometry;
    this.labels = data.labels;
    this.actions = [];
    this.selected = null;
    this.busy = false;
    this.svg = root.querySelector("svg.board");
    this.pieces = root.querySelector("[data-board-pieces]");
    this.panel = root.querySelector("[data-board-play]");
    this.svg.setAttribute("role", "group"); // a picture no longer: it holds buttons
    this.layer = this.svg.querySelector("[data-board-input]") ||
      window.TablaBoard.svg("g", { "class": "board-input", "data-board-input": "" }, this.svg);
  }

  Play.prototype.state = function () {
    var state = 0;
    this.actions.forEach(function (action) {
      action.steps.forEach(function (step) { state = step[4]; });
    });
    return state;
  };

  Play.prototype.moves = function () {
    var moves = [];
    this.actions.forEach(function (action) {
      action.steps.forEach(function (step) { moves.push(step[0]); });
    });
    return moves;
  };

  Play.prototype.complete = function () {
    return this.graph.states[this.state()].play !== null;
  };

  // Which of the decision's dice are used: one die of each step's number, in order.
  Play.prototype.used = function () {
    var dice = this.data.graph.dice;
    var used = dice.map(function () { return false; });
    this.actions.forEach(function (action) {
      action.steps.forEach(function (step) {
        for (var i = 0; i < dice.length; i++) {
          if (!used[i] && dice[i] === step[3]) { used[i] = true; return; }
        }
      });
    });
    return used;
  };

  // After a move: a single legal way on is filled in (never after an undo), and a lone movable
  // checker is picked up at once.
  Play.prototype.settle = function (afterMove) {
    var state = this.state();
    if (afterMove && !this.complete()) {
      var left = Object.keys(this.graph.reachable(state));
      if (left.length === 1) {
        this.actions.push({ steps: this.graph.pathTo(state, Number(left[0])), auto: true });
      }
    }
    var sources = this.graph.sources(this.state());
    this.selected = sources.length === 1 ? sources[0] : null;
    this.autoPicked = this.selected !== null; // a click on it then keeps it picked up
    kept = { key: this.data.key, actions: this.actions.slice() };
  };

  Play.prototype.render = function () {
    var state = this.state();
    var board = this.graph.board(state);
    var pieces = window.TablaBoard.layout(this.geo, board)
      .concat(window.TablaBoard.dice(this.geo, this.data.graph.dice, this.data.graph.turn, this.used()));
    window.TablaBoard.draw(this.pieces, pieces);
    var pips = this.graph.states[state].pips;
    root.querySelectorAll("[data-pip]").forEach(function (node) { node.textContent = pips[node.dataset.pip]; });
    this.drawHint(state);
    this.drawInput(state);
    this.drawPanel();
  };

  Play.prototype.drawPanel = function () {
    var complete = this.complete();
    var submit = this.panel.querySelector("[data-action=submit-play]");
    var undo = this.panel.querySelector("[data-action=undo]");
    submit.disabled = this.busy || !complete;
    undo.disabled = this.busy || this.actions.length === 0;
    var status = this.panel.querySelector("[data-play-status]");
    var moves = this.moves().join(" ") || this.labels.pass;
    var last = this.actions[this.actions.length - 1];
    if (complete) {
      var words = !last || !last.auto ? this.labels.complete
        : this.actions.length > 1 ? this.labels.completed : this.labels.forced;
      status.textContent = fill(words, { moves: moves });
      if (this.data.ends_game[this.graph.states[this.state()].play]) status.textContent += " " + this.labels.ends;
    } else {
      status.textContent = this.selected === null ? this.labels.pick : this.labels.drop;
    }
    this.panel.classList.toggle("complete", complete);
    this.svg.classList.toggle("playing", !complete);
  };

  // The layer of things to click, tap or tab to: a column per point and the bar; over them,
  // while a checker is picked up, a large marker per destination (the tray for a bear-off).
  Play.prototype.drawInput = function (state) {
    var layer = this.layer;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    if (this.busy || this.complete()) return;
    this.drawAreas(state);
    if (this.selected === null) return;
    this.drawSelected(this.selected);
    this.graph.destinations(state, this.selected).forEach(this.drawMarker, this);
  };

  Play.prototype.drawAreas = function (state) {
    var el = window.TablaBoard.svg;
    var geo = this.geo;
    var labels = this.labels;
    var selected = this.selected;
    var sources = this.graph.sources(state);
    var steps = this.graph.states[state].steps;
    var half = geo.point_width / 2;
    var areas = [];
    for (var point = 1; point <= 24; point++) {
      var top = point >= 13;
      areas.push({ target: String(point), x: geo.columns[point] - half, width: geo.point_width,
                   y: top ? geo.top : geo.middle, height: top ? geo.middle - geo.top : geo.bottom - geo.middle });
    }
    areas.push({ target: "bar", x: geo.bar_centre - geo.bar_width / 2, width: geo.bar_width,
                 y: geo.top, height: geo.bottom - geo.top });
    areas.forEach(function (area) {
      var isSource = sources.indexOf(area.target) !== -1;
      var attrs = { "class": "hit" + (isSource ? " source" : "") + (area.target === selected ? " selected" : ""),
                    "data-target": area.target };
      if (isSource) {
        // The point in the mover's own numbers, as in the moves: the text before the slash.
        var own = steps.filter(function (s) { return String(s[1]) === area.target; })[0][0].split("/")[0];
        attrs.tabindex = "0";
        attrs.role = "button";
        attrs["aria-label"] = area.target === selected ? fill(labels.picked, { point: own })
          : area.target === "bar" ? labels.bar_checker : fill(labels.checker, { point: own });
        if (area.target === selected) attrs["aria-pressed"] = "true";
      }
      var g = el("g", attrs, this.layer);
      el("rect", { "class": "hit-area", x: area.x, y: area.y, width: area.width, height: area.height, rx: 4 }, g);
    }, this);
  };

  Play.prototype.drawMarker = function (way) {
    var el = window.TablaBoard.svg;
    var geo = this.geo;
    var target = way.target;
    var own = way.path[way.path.length - 1][0].split("/")[1];
    var label = target === "off" ? this.labels.bear_off : fill(this.labels.destination, { point: own });
    var g = el("g", { "class": "hit destination", "data-target": target, tabindex: "0", role: "button",
                      "aria-label": label }, this.layer);
    var x, y;
    if (target === "off") { // the mover's half of the tray, and a little more
      var height = geo.bottom - geo.middle - 14;
      var edge = this.data.graph.turn === "w" ? geo.middle + 10 : geo.top + 4;
      el("rect", { "class": "hit-area marker", x: geo.tray_left - 12, y: edge, width: geo.tray_width + 24,
                   height: height, rx: 12 }, g);
      x = geo.tray_left + geo.tray_width / 2;
      y = edge + height / 2;
    } else {
      var centre = markerCentre(geo, Number(target));
      x = centre[0];
      y = centre[1];
      el("circle", { "class": "hit-area marker", cx: x, cy: y, r: MARKER_RADIUS }, g);
    }
    var text = el("text", { "class": "marker-label", x: x, y: y, dy: 6, "text-anchor": "middle" }, g);
    text.textContent = target === "off" ? this.labels.off : own;
  };

  // Markers of neighbouring points are staggered (near the edge, then further in), so that two
  // markers side by side never overlap.
  function markerCentre(geo, point) {
    var top = point >= 13;
    var column = top ? point - 13 : 12 - point;
    var inset = column % 2 ? 150 : 62;
    return [geo.columns[point], top ? geo.top + inset : geo.bottom - inset];
  }

  // A ring round the checker picked up: the top checker of its point (or of the bar).
  Play.prototype.drawSelected = function (selected) {
    var colour = this.data.graph.turn;
    var checkers = this.pieces.querySelectorAll('.checker.' + colour + '[data-point="' + selected + '"]:not(.pinned)');
    var top = checkers[checkers.length - 1];
    if (!top) return;
    var circle = top.querySelector("circle");
    window.TablaBoard.svg("circle", { "class": "picked-ring", cx: circle.getAttribute("cx"), cy: circle.getAttribute("cy"),
                                       r: Number(circle.getAttribute("r")) + 4 }, this.layer);
  };

  // --- the hint of a practice match (D146) -------------------------------------------------

  // The suggested play's steps still to make from this state, each an arrow from the mover's
  // checker (as board.js lays out the board before the step) to where it lands (as it lays
  // out the board after it), with a ring round the checker and the landing spot. Nothing when
  // no hint is asked for this decision, or the player's moves have left the play behind.
  Play.prototype.drawHint = function (state) {
    var layer = this.svg.querySelector("[data-board-hint]");
    if (layer) while (layer.firstChild) layer.removeChild(layer.firstChild);
    var path = hinted && hinted.key === this.data.key && !this.busy
      ? this.graph.pathTo(state, hinted.play) : null;
    if (!path || !path.length) return;
    var el = window.TablaBoard.svg;
    if (!layer) {
      layer = el("g", { "class": "board-hint", "data-board-hint": "", "aria-hidden": "true" });
      this.svg.insertBefore(layer, this.layer); // under the things to click or tap
    }
    arrowHead(this.svg);
    var geo = this.geo;
    var turn = this.data.graph.turn;
    var graph = this.graph;
    var before = state;
    path.forEach(function (step, index) {
      var from = checkerAt(geo, graph.board(before), turn, String(step[1]));
      var to = String(step[2]) === "off" ? trayAt(geo, turn)
        : checkerAt(geo, graph.board(step[4]), turn, String(step[2]));
      before = step[4];
      if (!from || !to) return;
      var g = el("g", { "class": "hint-step", "data-hint-step": step[0], "data-hint-from": step[1],
                        "data-hint-to": step[2] }, layer);
      el("circle", { "class": "hint-from", cx: from.x, cy: from.y, r: geo.radius + 3 }, g);
      el("circle", { "class": "hint-to", cx: to.x, cy: to.y, r: geo.radius }, g);
      var dx = to.x - from.x, dy = to.y - from.y;
      var length = Math.sqrt(dx * dx + dy * dy);
      var skip = geo.radius + 4;
      if (length > 2 * skip + 4) {
        el("line", { "class": "hint-arrow", x1: round1(from.x + dx * skip / length), y1: round1(from.y + dy * skip / length),
                     x2: round1(to.x - dx * skip / length), y2: round1(to.y - dy * skip / length),
                     "marker-end": "url(#hint-arrowhead)" }, g);
      }
      var label = el("text", { "class": "hint-number", x: to.x, y: to.y, dy: 6, "text-anchor": "middle" }, g);
      label.textContent = String(index + 1);
    });
  };

  function round1(value) { return Math.round(value * 10) / 10; }

  // Where the mover's top checker on ``point`` (a white point number or "bar") is drawn.
  function checkerAt(geo, board, turn, point) {
    var found = null;
    window.TablaBoard.layout(geo, board).forEach(function (piece) {
      if (piece.kind === "checker" && piece.colour === turn && String(piece.point) === point) found = piece;
    });
    return found;
  }

  // The middle of the mover's half of the tray (a bear-off).
  function trayAt(geo, turn) {
    var x = geo.tray_left + geo.tray_width / 2;
    return { x: x, y: turn === "w" ? (geo.middle + geo.bottom) / 2 : (geo.top + geo.middle) / 2 };
  }

  // The arrowhead the hint's arrows end with, defined once in the board's SVG.
  function arrowHead(svg) {
    if (svg.querySelector("#hint-arrowhead")) return;
    var el = window.TablaBoard.svg;
    var defs = svg.querySelector("defs") || svg.insertBefore(el("defs", {}), svg.firstChild);
    var marker = el("marker", { id: "hint-arrowhead", viewBox: "0 0 10 10", refX: "7", refY: "5",
                                markerWidth: "4", markerHeight: "4", orient: "auto" }, defs);
    el("path", { "class": "hint-arrowhead", d: "M0,0 L10,5 L0,10 z" }, marker);
  }

  // --- what the player does ----------------------------------------------------------------

  function replaying() {
    return Boolean(hooks.isReplaying && hooks.isReplaying());
  }

  Play.prototype.press = function (target, byKey) {
    if (this.busy || this.complete() || replaying()) return;
    var state = this.state();
    var sources = this.graph.sources(state);
    var destinations = this.selected === null ? [] : this.graph.destinations(state, this.selected);
    var path = wayTo(destinations, target);
    if (path) {
      hinted = null; // the player moves: the hint leaves the board (its text stays)
      this.actions.push({ steps: path, auto: false });
      this.settle(true);
      this.show(byKey ? "after-move" : null);
    } else if (target === this.selected) {
      if (this.autoPicked) { this.autoPicked = false; this.show(byKey ? "destination" : null); return; }
      this.selected = null;
      this.show(byKey ? target : null);
    } else if (sources.indexOf(target) !== -1) {
      this.selected = target;
      this.autoPicked = false;
      this.show(byKey ? "destination" : null);
    } else if (this.selected !== null) {
      this.selected = null;
      this.show(null);
      this.say(this.labels.closed);
    } else if (this.holdsOwnChecker(state, target)) {
      this.say(this.labels.stuck);
    } else {
      var near = byKey ? [] : nearSources(target, sources);
      if (near.length === 1) { this.selected = near[0]; this.show(null); return; }
      // Nothing moved: say why, so that a tap is never met with silence.
      this.say(this.holdsOpponentChecker(state, target) ? this.labels.opponent : this.labels.empty);
    }
  };

  // A line in the play's status (read out by screen readers: the status is a live region).
  Play.prototype.say = function (words) {
    var status = this.panel.querySelector("[data-play-status]");
    status.textContent = words;
    status.classList.remove("said");
    void status.offsetWidth; // restart the highlight when the same words are said again
    status.classList.add("said");
  };

  // Whether the top checker of this point belongs to the player not to move.
  Play.prototype.holdsOpponentChecker = function (state, target) {
    var board = this.graph.board(state);
    var turn = this.data.graph.turn;
    if (target === "bar") return board.bar[turn === "w" ? "b" : "w"] > 0;
    var stack = board.points[Number(target) - 1] || [];
    return stack.length > 0 && stack[stack.length - 1][0] !== turn;
  };

  // Whether the mover has a checker on this point (or the bar) that it could take hold of.
  Play.prototype.holdsOwnChecker = function (state, target) {
    var board = this.graph.board(state);
    var turn = this.data.graph.turn;
    if (target === "bar") return board.bar[turn] > 0;
    var stack = board.points[Number(target) - 1] || [];
    return stack.length > 0 && stack[stack.length - 1][0] === turn;
  };

  // A tap on a point without a checker of the mover, just beside a movable checker, picks that
  // one up when it is the only one next to the tap: a phone's board is narrow, and picking up
  // the wrong checker moves nothing.
  function nearSources(target, sources) {
    var point = Number(target);
    if (!point) return [];
    return [point - 1, point + 1].filter(function (p) {
      return p >= 1 && p <= 24 && (p >= 13) === (point >= 13) && sources.indexOf(String(p)) !== -1;
    }).map(String);
  }

  Play.prototype.undo = function (byKey) {
    if (this.busy || !this.actions.length || replaying()) return; // the board shows the past
    this.actions.pop();
    hinted = null;
    this.settle(false);
    this.show(byKey ? "after-move" : null);
  };

  Play.prototype.submit = function () {
    if (this.busy || !this.complete() || replaying()) return;
    var self = this;
    this.busy = true;
    this.render();
    hooks.submit(this.moves()).then(function () {
      if (play !== self) return; // the page moved on: a new decision is on the board
      self.busy = false;
      self.render();
    });
  };

  // After a live refresh of the same decision: the checker picked up stays picked up, and the
  // keyboard focus goes back to the same place (``focus``: what had it before the refresh).
  Play.prototype.resume = function (before, focus) {
    var sources = this.graph.sources(this.state());
    if (before.selected !== null && sources.indexOf(before.selected) !== -1) {
      this.selected = before.selected;
      this.autoPicked = before.autoPicked;
    }
    this.render();
    var target = null;
    if (focus && focus.target) {
      target = this.layer.querySelector('[data-target="' + focus.target + '"]' + (focus.marker ? ".destination" : ":not(.destination)"));
    } else if (focus && focus.action) {
      target = this.panel.querySelector('[data-action="' + focus.action + '"]');
    }
    if (target) target.focus({ preventScroll: true });
  };

  // Draw, then put the keyboard focus where the next key press belongs.
  Play.prototype.show = function (focus) {
    this.render();
    if (this.complete()) focus = "after-move"; // Enter now submits
    if (!focus) return;
    var layer = this.layer;
    var target = null;
    if (focus === "destination") target = layer.querySelector(".destination");
    else if (focus === "after-move") {
      target = this.complete() ? this.panel.querySelector("[data-action=submit-play]")
        : layer.querySelector(".destination") || layer.querySelector(".hit.source");
    } else target = layer.querySelector('.hit.source[data-target="' + focus + '"]') || layer.querySelector(".hit.source");
    if (target) target.focus({ preventScroll: true });
  };

  // --- wiring ------------------------------------------------------------------------------

  function setup(event) {
    var data = readJSON("board-play-data");
    var shown = root.querySelector("[data-play-notice]");
    if (shown && notice) { shown.textContent = notice; shown.hidden = false; }
    notice = "";
    var before = play;
    play = null;
    if (!data || !root.querySelector("[data-board-play]") || !root.querySelector("svg.board")) return;
    play = new Play(data);
    if (kept.key === data.key) { // the same decision, fetched again: the board stays as it was
      play.actions = kept.actions.slice();
      play.settle(false);
      if (before && before.data.key === data.key) play.resume(before, event && event.detail);
      else play.render();
      return;
    }
    var only = Object.keys(play.graph.reachable(0));
    if (only.length === 1) { // a forced play: nothing to choose, so it goes without asking (D47)
      play.actions.push({ steps: play.graph.pathTo(0, Number(only[0])), auto: true });
      play.settle(false);
      kept = { key: null, actions: [] }; // a refresh before it is sent finds it forced again
      play.render();
      notice = fill(play.labels.forced, { moves: play.moves().join(" ") || play.labels.pass });
      var forced = play;
      window.setTimeout(function () { if (play === forced) forced.submit(); }, FORCED_DELAY_MS);
      return;
    }
    play.settle(false);
    play.render();
  }

  function onClick(event) {
    if (!play) return;
    var button = event.target.closest("[data-action=submit-play], [data-action=undo]");
    if (button && play.panel.contains(button)) {
      if (button.dataset.action === "undo") play.undo(false);
      else play.submit();
      return;
    }
    var hit = event.target.closest("[data-board-input] [data-target]");
    if (hit) play.press(hit.dataset.target, false);
  }

  function onKey(event) {
    if (!play || event.target.matches("input, select, textarea")) return;
    if (event.target.closest && event.target.closest("dialog")) return; // the Resign dialog's keys
    var hit = event.target.closest && event.target.closest("[data-board-input] [data-target]");
    if (hit && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      play.press(hit.dataset.target, true);
    } else if (event.key === "Escape" && play.selected !== null) {
      var selected = play.selected;
      play.selected = null;
      play.show(selected);
    } else if (event.key === "Backspace" || event.key === "u" || event.key === "U") {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      play.undo(true);
    } else if (event.key === "Enter" && play.complete() && event.target.closest && event.target.closest("svg.board")) {
      event.preventDefault();
      play.submit();
    }
  }

  window.TablaBoardPlay = {
    // ``callbacks.submit(moves)`` sends a play and returns a promise; ``isReplaying()``.
    attach: function (element, callbacks) {
      root = element;
      hooks = callbacks;
      root.addEventListener("click", onClick);
      root.addEventListener("keydown", onKey);
      root.addEventListener("tabla:updated", setup);
      root.addEventListener("tabla:live", function () { if (play) play.render(); });
      setup();
    },
    // Draw a practice match's hint: the legal play number ``playIndex`` of the decision
    // ``key`` ("game:ply"). False when that decision is not the one on the board, or the
    // player's moves so far do not lead to that play (the hint is then text only).
    showHint: function (key, playIndex) {
      if (!play || play.data.key !== key) return false;
      hinted = { key: key, play: playIndex };
      play.render();
      return Boolean(play.svg.querySelector("[data-board-hint] .hint-step"));
    }
  };
})();
