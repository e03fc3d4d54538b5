// Draws board primitives (games/board_svg.py board_pieces) into an SVG group. No build step.
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
      var g = el("g", { "class": "die " + p.colour + (p.pending ? " pending" : ""), "data-die": p.value }, group);
      el("rect", { x: p.x, y: p.y, width: p.size, height: p.size, rx: 6 }, g);
      p.pips.forEach(function (pip) { el("circle", { cx: pip[0], cy: pip[1], r: p.pip_radius }, g); });
    }
  };

  window.TablaBoard = {
    draw: function (group, pieces) {
      while (group.firstChild) group.removeChild(group.firstChild);
      pieces.forEach(function (piece) { draw[piece.kind](piece, group); });
    }
  };
})();
