// Match clock: counts the running side down, first its delay ("+12"), then its bank, from the
// figures the server gave with the page (#clock-data: seconds as of the moment the page or its
// live part was built). The server alone decides a time-out: at 0:00 match.js asks it, and the
// page shows the answer (docs/decisions.md D95).
(function () {
  "use strict";
  var TICK_MS = 200;
  // {data: the clock-data JSON, at: the performance.now() it counts from}
  var state = null;

  // The figures are as of a moment between the request for them and their arrival: a live part
  // counts from its request (match.js puts its time on the event), so that a slow answer does
  // not show the running side more time than the server gives it; the page from its reading.
  function read(event) {
    var node = document.getElementById("clock-data");
    var asked = event && typeof event.askedAt === "number" ? event.askedAt : null;
    var at = asked === null ? window.performance.now() : asked;
    state = node ? { data: JSON.parse(node.textContent), at: at } : null;
    draw();
  }

  function pad(number) {
    return (number < 10 ? "0" : "") + number;
  }

  function format(seconds) {
    var whole = Math.max(0, Math.ceil(seconds - 1e-6)); // 0:00 only once the time is up
    var hours = Math.floor(whole / 3600);
    var minutes = Math.floor((whole % 3600) / 60);
    var rest = pad(whole % 60);
    return hours ? hours + ":" + pad(minutes) + ":" + rest : minutes + ":" + rest;
  }

  function draw() {
    if (!state) return;
    var data = state.data;
    var elapsed = (window.performance.now() - state.at) / 1000;
    document.querySelectorAll("[data-clock-side]").forEach(function (node) {
      var side = node.dataset.clockSide;
      var left = data.remaining[side];
      var delay = 0;
      if (data.running === side) {
        delay = Math.max(0, data.delay_left - elapsed);
        left = Math.max(0, left - Math.max(0, elapsed - data.delay_left));
      }
      node.querySelector("[data-clock-time]").textContent = format(left);
      node.querySelector("[data-clock-delay]").textContent = delay > 0 ? "+" + Math.ceil(delay) : "";
      var out = data.flagged === side || (data.running === side && left <= 0 && delay <= 0);
      node.classList.toggle("flagged", out);
      node.classList.toggle("in-delay", delay > 0);
    });
  }

  document.addEventListener("tabla:updated", read);
  read();
  window.setInterval(draw, TICK_MS);
})();
