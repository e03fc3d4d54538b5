// The organiser's desk: every action is a call to the REST API (session cookie + CSRF header),
// declared in the page's HTML, so the pages need no script of their own.
//
//   <form data-api="/api/v1/tournaments/5/entries/" data-method="POST" data-next="reload">
//     <input name="player" data-type="int"> ...
//     <p class="form-error" data-error hidden></p>
//   </form>
//   <button data-api="/api/v1/tournaments/5/start/" data-body='{"x": 1}'
//           data-confirm="Start the tournament?">Start</button>
//
// A field's data-type says how its value goes into the JSON body: "int", "float", "bool" (a
// checkbox), "json", "lines" (a textarea, one item a line), "score" (a match's final score in
// one field, "5-3", "5 3" or "5:3", sent as score_one and score_two; its data-format-error is
// the message for anything else), or text (the default). Empty fields
// are left out unless they carry data-keep-empty (then null). A field named "a.b" fills
// {"a": {"b": ...}}. data-next is "reload" (the default), "none", "tab" (the open desk swaps in
// a tab's fragment: data-tab, else the tab open; the focus goes to data-focus, a selector), or
// a URL in which "{id}" is replaced by the answer's id. An error answer's message is shown in
// the form's [data-error] (or next to the button) and nothing else changes.
(function () {
  "use strict";

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  function fieldValue(field) {
    var type = field.dataset.type || "text";
    if (type === "bool") return field.checked;
    var raw = field.value;
    if (field.multiple && field.selectedOptions) {
      return Array.prototype.map.call(field.selectedOptions, function (o) { return o.value; });
    }
    if (raw === "" || raw === undefined) return undefined;
    if (type === "int") return parseInt(raw, 10);
    if (type === "float") return parseFloat(raw);
    if (type === "json") return JSON.parse(raw);
    if (type === "score") return scoreValue(field, raw);
    if (type === "lines") {
      return raw.split(/\r?\n/).map(function (line) { return line.trim(); })
        .filter(function (line) { return line !== ""; });
    }
    return raw;
  }

  // A final score typed in one field: two numbers apart by "-", "–", ":", "/" or spaces.
  var SCORE = /^\s*(\d{1,3})\s*(?:[-\u2013:/]|\s)\s*(\d{1,3})\s*$/;

  function scoreValue(field, raw) {
    var found = SCORE.exec(raw);
    if (!found) throw new Error(field.dataset.formatError || "5-3");
    return { score_one: parseInt(found[1], 10), score_two: parseInt(found[2], 10) };
  }

  function put(body, name, value) {
    var parts = name.split(".");
    var target = body;
    for (var i = 0; i < parts.length - 1; i++) {
      if (typeof target[parts[i]] !== "object" || target[parts[i]] === null) target[parts[i]] = {};
      target = target[parts[i]];
    }
    target[parts[parts.length - 1]] = value;
  }

  function formBody(form) {
    var body = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.disabled || field.dataset.skip !== undefined) return;
      if (field.type === "radio" && !field.checked) return;
      if (field.type === "checkbox" && (field.dataset.type || "") !== "bool" && !field.checked) return;
      var value;
      try {
        value = fieldValue(field);
      } catch (error) {
        if (field.dataset.type === "score") throw error; // its message names the field
        throw new Error((field.dataset.label || field.name) + ": " + error.message);
      }
      if (value === undefined || (typeof value === "number" && isNaN(value))) {
        if (field.dataset.keepEmpty === undefined) return;
        value = null;
      }
      if (field.dataset.type === "score") {
        put(body, "score_one", value.score_one);
        put(body, "score_two", value.score_two);
      } else {
        put(body, field.name, value);
      }
    });
    return body;
  }

  // An answer with no message of its own: the page's words (<body data-error-status>, in the
  // page's language) with the HTTP status.
  function statusText(status) {
    var words = document.body.dataset.errorStatus || "Error %(status)s";
    return words.replace("%(status)s", String(status));
  }

  // The message of an error answer: DRF's {"detail": ...}, or {"field": ["message"], ...}.
  function errorText(status, data) {
    if (!data || typeof data !== "object") return statusText(status);
    if (typeof data.detail === "string") return data.detail;
    var parts = [];
    Object.keys(data).forEach(function (key) {
      var value = data[key];
      var text = Array.isArray(value) ? value.map(function (v) {
        return typeof v === "string" ? v : JSON.stringify(v);
      }).join(" ") : (typeof value === "string" ? value : JSON.stringify(value));
      parts.push(key === "non_field_errors" ? text : key + ": " + text);
    });
    return parts.join("; ") || statusText(status);
  }

  // In a form's error message, a field's API name (one with an underscore: plain words stay)
  // reads as its label (data-label): "“Late entry until round” (4) is after the last round (3)".
  function labelled(source, text) {
    if (source.tagName !== "FORM") return text;
    Array.prototype.forEach.call(source.elements, function (field) {
      if (!field.name || !field.dataset.label || !/^[a-z]+(_[a-z]+)+$/.test(field.name)) return;
      text = text.replace(new RegExp("\\b" + field.name + "\\b", "g"),
        "\u201c" + field.dataset.label + "\u201d");
    });
    return text;
  }

  function errorNode(source) {
    var node = source.querySelector && source.querySelector("[data-error]");
    if (node) return node;
    node = source.nextElementSibling;
    if (node && node.hasAttribute("data-error")) return node;
    node = document.createElement("span");
    node.className = "form-error";
    node.setAttribute("data-error", "");
    node.setAttribute("role", "alert");
    source.insertAdjacentElement("afterend", node);
    return node;
  }

  function showError(source, text) {
    var node = errorNode(source);
    node.textContent = text;
    node.hidden = false;
  }

  function call(source, url, method, body) {
    var message = source.dataset.confirm;
    if (message && !window.confirm(message)) return Promise.resolve(null);
    document.dispatchEvent(new CustomEvent("desk:calling", { detail: { source: source } }));
    var buttons = source.tagName === "FORM"
      ? source.querySelectorAll("button, input[type=submit]") : [source];
    Array.prototype.forEach.call(buttons, function (b) { b.disabled = true; });
    var node = errorNode(source);
    node.hidden = true;
    var options = {
      method: method,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": csrfToken() }
    };
    if (method !== "GET" && method !== "DELETE") {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body || {});
    }
    return fetch(url, options).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      var parsed = type.indexOf("json") >= 0 ? response.json() : Promise.resolve(null);
      return parsed.then(function (data) {
        if (!response.ok) throw new Error(labelled(source, errorText(response.status, data)));
        return data;
      });
    }).then(function (data) {
      var next = source.dataset.next || "reload";
      if (next === "reload") {
        window.location.reload();
      } else if (next !== "none" && next !== "tab") {
        window.location.assign(next.replace("{id}", data && data.id !== undefined ? data.id : ""));
      }
      document.dispatchEvent(new CustomEvent("desk:done", { detail: { source: source, data: data } }));
      return data;
    }).catch(function (error) {
      showError(source, error.message);
    }).finally(function () {
      Array.prototype.forEach.call(buttons, function (b) { b.disabled = false; });
      document.dispatchEvent(new CustomEvent("desk:settled", { detail: { source: source } }));
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-api]")) return;
    event.preventDefault();
    var body;
    try {
      body = formBody(form);
    } catch (error) {
      showError(form, error.message);
      return;
    }
    call(form, form.dataset.api, (form.dataset.method || "POST").toUpperCase(), body);
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-api]");
    if (!button) return;
    event.preventDefault();
    var body = {};
    try {
      body = button.dataset.body ? JSON.parse(button.dataset.body) : {};
    } catch (error) {
      showError(button, error.message);
      return;
    }
    call(button, button.dataset.api, (button.dataset.method || "POST").toUpperCase(), body);
  });

  // <button data-print> prints the page (the print stylesheet keeps only what is for paper).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (!button) return;
    event.preventDefault();
    window.print();
  });

  window.TablaDesk = { call: call, formBody: formBody, errorText: errorText, statusText: statusText,
    showError: showError };

  // --- the open desk: scores without a page load, following the tournament ---------------
  //
  // <div class="desk" data-state-url data-socket-url data-etag [data-fragment-url]> follows its
  // tournament over the socket (live.js), polling the state URL (If-None-Match, every 1.5 s)
  // while no socket is open. A new version updates the Results tab's badge and, on the Results
  // tab, swaps in the tab's fragment, keeping what is being typed, the focus and the rows just
  // saved. A score form (form[data-score]) saves without a page load: its row shows the result
  // with an Undo for UNDO_MS, which opens the row again with the saved score, to save through
  // the correction endpoint (data-correct-url); the cursor goes to the next open table.
  var desk = document.querySelector(".desk[data-state-url]");
  if (!desk) return;
  var POLL_MS = 1500; // a change shows within 2 s (1.5 s, then the state and the fragment)
  var UNDO_MS = 10000;
  var DEBOUNCE_MS = 150;
  var etag = desk.dataset.etag || null;
  var busy = 0; // calls to the API in flight: no swap meanwhile
  var pinned = {}; // match key -> the row kept across swaps (just saved, or being corrected)
  var focusNext = false; // a save found no open table: focus the first one a swap brings

  document.addEventListener("desk:calling", function () { busy += 1; });
  document.addEventListener("desk:settled", function () {
    busy = Math.max(0, busy - 1);
    if (busy === 0 && stale) refresh();
  });

  function openSection() { return desk.querySelector(".desk-open"); }

  function words() {
    var section = openSection();
    return section ? section.dataset : {};
  }

  function rowOf(node) { return node.closest("li.desk-match[data-key]"); }

  function scoreInputs() {
    return Array.prototype.filter.call(
      desk.querySelectorAll(".desk-open form[data-score] input[name=score]"),
      function (input) { return !pinned[rowOf(input).dataset.key]; });
  }

  function focusAfter(row) {
    var inputs = scoreInputs();
    if (!inputs.length) { focusNext = true; return; }
    var next = inputs.filter(function (input) {
      return row.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING;
    })[0] || inputs[0];
    next.focus();
  }

  function savedRow(row, form, data) {
    var score = formBody(form); // the score as saved, from its one field
    var one = score.score_one, two = score.score_two;
    var text = words();
    var original = form.cloneNode(true);
    original.dataset.api = form.dataset.correctUrl;
    original.dataset.correct = "";
    delete original.dataset.score;
    original.querySelectorAll("[data-error]").forEach(function (node) { node.hidden = true; });
    // Cloned while its call settles: its buttons are still disabled.
    original.querySelectorAll("button").forEach(function (button) { button.disabled = false; });
    var scope = original.querySelector("input[name=scope]");
    if (scope) scope.remove();
    row.textContent = "";
    var line = document.createElement("div");
    line.className = "desk-score desk-saved";
    line.setAttribute("data-saved", "");
    var key = document.createElement("span");
    key.className = "desk-key";
    key.textContent = row.dataset.key;
    var what = document.createElement("span");
    what.className = "desk-names";
    what.textContent = form.dataset.one + " " + one + "\u2013" + two + " " + form.dataset.two +
      " \u00b7 " + (form.dataset.correct !== undefined ? text.corrected : text.saved);
    var undo = document.createElement("button");
    undo.type = "button";
    undo.className = "small";
    undo.setAttribute("data-undo", "");
    undo.textContent = text.undo;
    line.appendChild(key);
    line.appendChild(document.createTextNode(" "));
    line.appendChild(what);
    line.appendChild(document.createTextNode(" "));
    line.appendChild(undo);
    row.appendChild(line);
    row.classList.add("saved");
    pinned[row.dataset.key] = row;
    var timer = window.setTimeout(function () {
      undo.remove();
      delete pinned[row.dataset.key];
    }, UNDO_MS);
    undo.addEventListener("click", function () {
      window.clearTimeout(timer);
      row.textContent = "";
      row.classList.remove("saved");
      original.elements.score.value = one + "-" + two;
      var note = document.createElement("p");
      note.className = "small muted";
      note.setAttribute("data-undo-note", "");
      note.textContent = text.undoNote;
      row.appendChild(original);
      row.appendChild(note);
      original.elements.score.focus();
      original.elements.score.select();
    });
  }

  document.addEventListener("desk:done", function (event) {
    var form = event.detail.source;
    if (!form.matches || !form.matches("form[data-score], .desk-open form[data-correct]") || !desk.contains(form)) return;
    var row = rowOf(form);
    savedRow(row, form, event.detail.data);
    focusAfter(row);
    refresh();
  });

  // The Results tab opens with the cursor on the first open table's score (D119).
  function focusFirstScore() {
    var active = document.activeElement;
    if (active && active !== document.body) return;
    var first = scoreInputs()[0];
    if (first) first.focus({ preventScroll: true });
  }
  focusFirstScore();

  // A round's print page opens in a tab of its own: the cursor goes back to the open tables,
  // where the organiser types the results once the slips are printed.
  desk.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-print-round][target]");
    if (!link) return;
    window.setTimeout(function () {
      if (document.activeElement === link) link.blur();
      focusFirstScore();
    }, 0);
  });

  // A reported result confirmed or overridden from the queue (data-answer): the tab's
  // fragment comes in without a page load, the match among the finished ones (D121).
  document.addEventListener("desk:done", function (event) {
    var source = event.detail.source;
    if (!source.matches || !source.matches("[data-answer]") || !desk.contains(source)) return;
    focusNext = true;
    refresh();
  });

  // The last result in: the podium the tab now opens with comes into view (D121).
  var podiumShown = !!desk.querySelector("[data-podium]");
  desk.addEventListener("desk:updated", function () {
    var now = desk.querySelector("[data-status-now]");
    var badge = document.querySelector("[data-desk-status]");
    if (now && badge && badge.textContent !== now.dataset.label) {
      badge.className = "badge status-" + now.dataset.statusNow; // "finished" once it is
      badge.textContent = now.dataset.label;
    }
    var podium = desk.querySelector("[data-podium]");
    if (!podium || podiumShown) return;
    podiumShown = true;
    podium.scrollIntoView({ block: "start" });
  });

  // "Pair round N" on the Results tab: the new round's tables come in, the cursor on the first.
  document.addEventListener("desk:done", function (event) {
    var form = event.detail.source;
    if (!form.matches || !form.matches("form[data-pair-here]") || !desk.contains(form)) return;
    focusNext = true;
    refresh();
  });

  // --- following the tournament -----------------------------------------------------------

  var stale = false;

  function remember() {
    var kept = { values: [], focus: null, open: [] };
    desk.querySelectorAll(".desk-open li.desk-match[data-key] input").forEach(function (input) {
      if (input.value !== "" && input.type !== "hidden") {
        kept.values.push([rowOf(input).dataset.key, input.name, input.value]);
      }
    });
    desk.querySelectorAll("li[data-key] details[open], li[data-report] details[open]").forEach(function (node) {
      var holder = node.closest("[data-key], [data-report]");
      kept.open.push(holder.dataset.key ? '[data-key="' + holder.dataset.key + '"]'
        : '[data-report="' + holder.dataset.report + '"]');
    });
    // A refusal shown in an open row (a typo's message) stays on screen through the swap.
    kept.errors = [];
    desk.querySelectorAll(".desk-open li.desk-match[data-key] form [data-error]:not([hidden])").forEach(function (node) {
      var form = node.closest("form");
      var row = rowOf(form);
      var index = Array.prototype.indexOf.call(row.querySelectorAll("form"), form);
      if (node.textContent) kept.errors.push([row.dataset.key, index, node.textContent]);
    });
    var active = document.activeElement;
    if (active && desk.contains(active) && active.name && rowOf(active)) {
      kept.focus = [rowOf(active).dataset.key, active.name];
    }
    return kept;
  }

  function restore(kept) {
    kept.values.forEach(function (item) {
      var input = desk.querySelector('.desk-open li.desk-match[data-key="' + item[0] + '"] input[name="' + item[1] + '"]');
      if (input && input.value === "") input.value = item[2];
    });
    kept.open.forEach(function (selector) {
      var node = desk.querySelector(selector + " details");
      if (node) node.open = true;
    });
    kept.errors.forEach(function (item) {
      var row = desk.querySelector('.desk-open li.desk-match[data-key="' + item[0] + '"]');
      var form = row && row.querySelectorAll("form")[item[1]];
      var node = form && form.querySelector("[data-error]");
      if (node) { node.textContent = item[2]; node.hidden = false; }
    });
    if (kept.focus) {
      var input = desk.querySelector('.desk-open li.desk-match[data-key="' + kept.focus[0] + '"] [name="' + kept.focus[1] + '"]');
      if (input) input.focus();
    } else if (focusNext && scoreInputs().length) {
      focusNext = false;
      scoreInputs()[0].focus();
    }
  }

  function putBack(row) {
    var same = desk.querySelector('.desk-open li.desk-match[data-key="' + row.dataset.key + '"]');
    if (same) { same.replaceWith(row); return; }
    var list = desk.querySelector(".desk-open ul.desk-matches");
    if (list) { list.insertBefore(row, list.firstChild); return; }
    var section = openSection();
    if (!section) return;
    var holder = document.createElement("ul");
    holder.className = "desk-matches";
    holder.appendChild(row);
    section.querySelector("h2").insertAdjacentElement("afterend", holder);
  }

  // The Results tab's fragment, swapped in; false when it cannot be now (a call in flight).
  function refresh() {
    var url = desk.dataset.fragmentUrl;
    if (!url) return Promise.resolve(null);
    if (busy > 0) { stale = true; return Promise.resolve(false); }
    stale = false;
    return fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        if (busy > 0) { stale = true; return; }
        var kept = remember();
        desk.innerHTML = html;
        Object.keys(pinned).forEach(function (key) { putBack(pinned[key]); });
        restore(kept);
        desk.dispatchEvent(new CustomEvent("desk:updated", { bubbles: true }));
      });
  }

  function showBadge(count) {
    var badge = document.querySelector("[data-desk-badge]");
    if (!badge) return;
    badge.querySelector("[data-count]").textContent = String(count);
    badge.hidden = !count;
  }

  // Ask for the desk's version; swap the tab in when it has changed.
  function check() {
    var headers = etag ? { "If-None-Match": etag } : {};
    return fetch(desk.dataset.stateUrl, { headers: headers, credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        if (response.status === 304 || !response.ok) return null;
        var fresh = response.headers.get("ETag");
        return response.json().then(function (data) {
          showBadge(data.waiting);
          if (fresh === etag) return null;
          return refresh().then(function (answer) {
            if (answer !== false) etag = fresh;
          });
        });
      });
  }

  function poll() {
    if (document.hidden || live.connected()) return schedule();
    check().catch(function () { /* offline for a moment: again at the next tick */ }).then(schedule);
  }

  function schedule() { window.setTimeout(poll, POLL_MS); }

  function followSocket() {
    if (!window.TablaLive || !desk.dataset.socketUrl) return { connected: function () { return false; } };
    return window.TablaLive.follow(desk.dataset.socketUrl, function () {
      if (document.hidden) return false;
      // Several messages come together (a result, its standings): one check for them.
      return new Promise(function (resolve) { window.setTimeout(resolve, DEBOUNCE_MS); }).then(check);
    });
  }

  var live = followSocket();
  schedule();

  // --- a tab swapped in after one of its actions (data-next="tab") --------------------------
  //
  // The Registration tab's actions (open or close registration, players entered, seeds, check
  // in, withdraw) swap in that tab's fragment (?tab=registration&fragment=registration), and a
  // start the Results tab's, with round 1's tables and the cursor on the first (D149): the
  // tabs' bar, the header's status and public link follow, and the desk follows the socket a
  // draft did not have. A fragment that cannot be fetched falls back to loading the tab's page.
  function switchTab(tab) {
    document.querySelectorAll("nav.desk-tabs a[data-tab]").forEach(function (link) {
      var on = link.dataset.tab === tab;
      link.classList.toggle("current", on);
      if (on) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    });
    desk.dataset.desk = tab;
    if (tab === "results") desk.dataset.fragmentUrl = "?tab=results&fragment=results";
    else delete desk.dataset.fragmentUrl;
    // An address naming another tab would show that one on a reload: it names this one now.
    var named = new URLSearchParams(window.location.search).get("tab");
    if (named && named !== tab) window.history.replaceState(window.history.state, "", "?tab=" + tab);
  }

  function showTab(tab, focus) {
    tab = tab || desk.dataset.desk;
    var url = "?tab=" + encodeURIComponent(tab);
    return fetch(url + "&fragment=" + encodeURIComponent(tab),
      { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        desk.innerHTML = html;
        if (tab !== desk.dataset.desk) switchTab(tab);
        desk.dispatchEvent(new CustomEvent("desk:updated", { bubbles: true }));
        var node = focus ? desk.querySelector(focus) : null;
        if (node) node.focus();
        else if (tab === "results" && scoreInputs().length) scoreInputs()[0].focus();
      })
      .catch(function () { window.location.assign(url); });
  }
  window.TablaDesk.showTab = showTab;

  document.addEventListener("desk:done", function (event) {
    var source = event.detail.source;
    if (!source.dataset || source.dataset.next !== "tab" || !desk.contains(source)) return;
    showTab(source.dataset.tab, source.dataset.focus);
  });

  desk.addEventListener("desk:updated", function () {
    var now = desk.querySelector("[data-status-now]");
    var link = desk.querySelector("template[data-public-now]");
    var holder = document.querySelector("[data-desk-public]");
    if (link && holder && holder.innerHTML.trim() !== link.innerHTML.trim()) {
      holder.innerHTML = link.innerHTML;
    }
    if (now && now.dataset.socketUrl && !desk.dataset.socketUrl) {
      desk.dataset.socketUrl = now.dataset.socketUrl; // registration opened: a socket now
      live = followSocket();
    }
  });

  // --- the Rounds tab's "Pair round N", and a finished match's correction, in place -------
  //
  // form[data-pair-rounds] (the Rounds tab) pairs the next Swiss round, then swaps in the
  // Rounds tab's fragment (its data-fragment-url): the new round's tables and its print link,
  // which takes the focus. The address stays (no history entry: a page without ?round=
  // shows the round being played, the new one). A fragment that cannot be fetched falls
  // back to loading the tab's page with the new round (data-page-url).
  function pairedRound(form) {
    return fetch(form.dataset.fragmentUrl, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        desk.innerHTML = html;
        var link = desk.querySelector("section.desk-round a[data-print-link]");
        if (link) link.focus();
        desk.dispatchEvent(new CustomEvent("desk:updated", { bubbles: true }));
      })
      .catch(function () { window.location.assign(form.dataset.pageUrl); });
  }

  document.addEventListener("desk:done", function (event) {
    var form = event.detail.source;
    if (!form.matches || !form.matches("form[data-pair-rounds]") || !desk.contains(form)) return;
    pairedRound(form);
  });

  // A correction of a finished match (.desk-finished form[data-correct]) shows the corrected
  // score in its row at once, then the Results tab's fragment comes in (refresh: the bracket's
  // next matches, a row just saved above that showed the old score gone); the row says
  // "corrected" for UNDO_MS and keeps the focus on its "Correct…". A refusal stays in the form.
  var corrected = {}; // match key -> until when its row says "corrected"
  var correctedFocus = null;

  function finishedRow(key) {
    return desk.querySelector('.desk-finished li.desk-match[data-key="' + key + '"]');
  }

  function markCorrected() {
    var section = desk.querySelector(".desk-finished");
    var now = Date.now();
    Object.keys(corrected).forEach(function (key) {
      var row = finishedRow(key);
      if (corrected[key] <= now) {
        delete corrected[key];
        if (row) row.querySelectorAll("[data-corrected-note]").forEach(function (n) { n.remove(); });
        return;
      }
      if (!row || row.querySelector("[data-corrected-note]")) return;
      var note = document.createElement("span");
      note.className = "small muted";
      note.setAttribute("data-corrected-note", "");
      note.textContent = " \u00b7 " + (section ? section.dataset.corrected : "");
      row.querySelector(".desk-names").appendChild(note);
    });
  }

  // The focus, which the swap took from the corrected row's "Correct…", goes back there.
  function focusCorrected() {
    var key = correctedFocus;
    correctedFocus = null;
    var active = document.activeElement;
    if (!key || (active && active !== document.body && desk.contains(active))) return;
    var row = finishedRow(key);
    var summary = row && row.querySelector("summary");
    if (summary) summary.focus();
  }

  function showCorrection(row, form) {
    var one = parseInt(form.elements.score_one.value, 10);
    var two = parseInt(form.elements.score_two.value, 10);
    var final = row.querySelector(".desk-final");
    if (final) final.textContent = one + "\u2013" + two;
    var names = row.querySelectorAll(".desk-names > span:not([data-corrected-note]):not(.badge)");
    if (names.length >= 2) {
      names[0].classList.toggle("winner", one > two);
      names[1].classList.toggle("winner", two > one);
    }
  }

  document.addEventListener("desk:done", function (event) {
    var form = event.detail.source;
    if (!form.matches || !form.matches(".desk-finished form[data-correct]") || !desk.contains(form)) return;
    var row = rowOf(form);
    var key = row.dataset.key;
    var details = form.closest("details");
    if (details) details.open = false;
    showCorrection(row, form);
    if (pinned[key]) { // saved above moments ago: its line shows the old score
      pinned[key].remove();
      delete pinned[key];
    }
    corrected[key] = Date.now() + UNDO_MS;
    markCorrected();
    var summary = details && details.querySelector("summary");
    if (summary) summary.focus();
    correctedFocus = key;
    window.setTimeout(markCorrected, UNDO_MS + 50);
    refresh();
  });

  desk.addEventListener("desk:updated", function () {
    markCorrected();
    focusCorrected();
  });
})();
