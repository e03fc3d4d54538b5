// Draws board primitives (games/board_svg.py board_pieces) into an SVG group, and lays out a
// position the same way in the browser (for the board on which a player moves checkers; the
// numbers come from board_svg.board_geometry, and a browser test compares the two layouts).
// No build step.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(x, y, value, attrs, parent) {
    var node = el("text", Object.assign({ x: x, y: y, "text-anchor": "middle" }, attrs), parent);
    node.textContent = value;
    return node;
  }

  var draw = {
    checker: function (p, group) {
      var g = el("g", { "class": "checker " + p.colour + (p.pinned ? " pinned" : ""), "data-point": p.point }, group);
      el("circle", { cx: p.x, cy: p.y, r: p.r }, g);
      if (p.pinned) el("circle", { "class": "pin-ring", cx: p.x, cy: p.y, r: p.r - 6 }, g);
      if (p.label) text(p.x, p.y, p.label, { dy: 5 }, g);
    },
    slab: function (p, group) {
      el("rect", { "class": "slab " + p.colour, x: p.x, y: p.y, width: p.w, height: p.h, rx: 2 }, group);
    },
    text: function (p, group) {
      text(p.x, p.y, p.text, { "class": "tray-count " + p.colour }, group);
    },
    die: function (p, group) {
      var classes = "die " + p.colour + (p.pending ? " pending" : "") + (p.used ? " used" : "");
      var g = el("g", { "class": classes, "data-die": p.value }, group);
      el("rect", { x: p.x, y: p.y, width: p.size, height: p.size, rx: 6 }, g);
      p.pips.forEach(function (pip) { el("circle", { cx: pip[0], cy: pip[1], r: p.pip_radius }, g); });
    }
  };

  // --- layout: board_svg.board_pieces in JavaScript ----------------------------------------

  function round1(value) { return Math.round(value * 10) / 10; }

  function checker(geo, x, y, colour, label, pinned, point) {
    return { kind: "checker", x: round1(x), y: round1(y), r: geo.radius - 1, colour: colour,
             label: label, pinned: pinned, point: point };
  }

  // A point's stack, bottom to top: a colour under another colour is pinned (Tapa), and its
  // pinner half covers it.
  function stack(geo, point, pairs) {
    var x = geo.columns[point];
    var top = point >= 13;
    var shown = pairs.map(function (pair) {
      return { colour: pair[0], count: pair[1], visible: Math.min(pair[1], geo.segment_visible) };
    });
    var total = shown.reduce(function (sum, s) { return sum + s.visible; }, 0);
    if (total === 0) return [];
    var R = geo.radius;
    var step = total <= 5 ? 2 * R : (geo.stack_length - 2 * R) / (total - 1);
    var direction = top ? 1 : -1;
    var edge = top ? geo.top : geo.bottom;
    var pieces = [];
    var offset = 0;
    shown.forEach(function (s, segment) {
      var pinned = segment < shown.length - 1; // half covered by its pinner
      for (var i = 0; i < s.visible; i++) {
        var label = i === s.visible - 1 && s.count > s.visible ? String(s.count) : "";
        pieces.push(checker(geo, x, edge + direction * (R + offset), s.colour, label, pinned, point));
        offset += pinned ? step / 2 : step;
      }
    });
    return pieces;
  }

  function bar(geo, colour, count, sign) {
    var visible = Math.min(count, 4);
    var pieces = [];
    for (var i = 0; i < visible; i++) {
      var y = geo.middle + sign * (geo.radius + 6 + i * 2 * geo.radius);
      var label = i === visible - 1 && count > visible ? String(count) : "";
      pieces.push(checker(geo, geo.bar_centre, y, colour, label, false, "bar"));
    }
    return pieces;
  }

  function off(geo, colour, count) {
    var pieces = [];
    for (var i = 0; i < count; i++) {
      var y = colour === "w" ? geo.bottom - 4 - (i + 1) * 11 : geo.top + 4 + i * 11;
      pieces.push({ kind: "slab", x: geo.tray_left + 6, y: y, w: geo.tray_width - 12, h: 9, colour: colour });
    }
    if (count) {
      var ty = colour === "w" ? geo.bottom - 4 - count * 11 - 8 : geo.top + 4 + count * 11 + 16;
      pieces.push({ kind: "text", x: geo.tray_left + Math.floor(geo.tray_width / 2), y: ty,
                    text: String(count), colour: colour });
    }
    return pieces;
  }

  // Dice in the middle of the mover's half; ``used`` marks the dice already played.
  function dice(geo, values, turn, used) {
    var size = values.length <= 4 ? geo.die_size : 24;
    var gap = 8;
    var total = values.length * size + (values.length - 1) * gap;
    var left = geo.dice_centre[turn] - total / 2;
    return values.map(function (value, i) {
      var x = left + i * (size + gap);
      var y = geo.middle - size / 2;
      return {
        kind: "die", x: round1(x), y: round1(y), size: size, value: value,
        pips: (geo.pips[value] || []).map(function (p) { return [round1(x + p[0] * size), round1(y + p[1] * size)]; }),
        pip_radius: round1(size / 11), colour: turn, pending: false, used: Boolean(used && used[i])
      };
    });
  }

  // Everything but the dice: stacks of points 1-24, then white's bar and off, then black's.
  function layout(geo, board) {
    var pieces = [];
    board.points.forEach(function (pairs, index) { pieces = pieces.concat(stack(geo, index + 1, pairs)); });
    [["w", -1], ["b", 1]].forEach(function (side) {
      pieces = pieces.concat(bar(geo, side[0], board.bar[side[0]] || 0, side[1]));
      pieces = pieces.concat(off(geo, side[0], board.off[side[0]] || 0));
    });
    return pieces;
  }

  window.TablaBoard = {
    draw: function (group, pieces) {
      while (group.firstChild) group.removeChild(group.firstChild);
      pieces.forEach(function (piece) { draw[piece.kind](piece, group); });
    },
    layout: layout,
    dice: dice,
    svg: el
  };
})();
