// The desk's registration tab (templates/tournaments/desk/_registration.html and
// _add_players.html): find a player already known and enter them; enter a new player; enter a
// pasted list or a CSV file of players; save the seeds as typed; show a claim code. It reads
// the page's JSON (#desk-registration: the API's addresses, the clubs, the players entered and
// the words to show) and calls the REST API as desk.js does (window.TablaDesk); after a change
// the open desk swaps in the tab's fragment (desk.js, D149) and this script binds its new
// elements (on desk:updated).
//
// A list has one player a line, "name[, club][, rating]" (or separated by ";" or tabs, as a
// CSV file; a first line "name,club,rating" is a header and may order the columns). A line
// without a club is for the tournament's club. Before anything is written, each line is looked
// up: a player of that name in that club (letter case and spaces ignored, as the players API
// compares them) is the known player, others are new. Entering then creates the new players
// in one call (POST /players/bulk/) and enters everybody in another (POST
// /tournaments/{id}/entries/bulk/), each all or nothing (docs/decisions.md D37).
(function () {
  "use strict";

  var data = null;
  var text = {};
  var NAME_MAX = 80;
  var LOOKUPS_AT_ONCE = 4;

  function say(key, values) {
    return (text[key] || key).replace(/%\((\w+)\)s/g, function (all, name) {
      return values && values[name] !== undefined ? String(values[name]) : all;
    });
  }

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  // A call to the API answering {ok, status, data}; only a network failure rejects.
  function api(method, url, body) {
    var options = {
      method: method,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": csrfToken() }
    };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(url, options).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      var parsed = type.indexOf("json") >= 0 ? response.json() : Promise.resolve(null);
      return parsed.then(function (answer) {
        return { ok: response.ok, status: response.status, data: answer };
      });
    });
  }

  function errorOf(answer) {
    return window.TablaDesk.errorText(answer.status, answer.data);
  }

  function withLatePoints(body) {
    var select = document.querySelector("[data-late-points]");
    if (select) body.late_bye_points = parseFloat(select.value);
    return body;
  }

  // The tab's fragment comes in (the open desk's swap: no page load), the cursor where the
  // organiser was typing; without the swap, the page reloads and the cursor goes back there.
  function reloadFocusing(selector) {
    if (window.TablaDesk.showTab) return window.TablaDesk.showTab(null, selector);
    try { window.sessionStorage.setItem("desk-focus", selector); } catch (error) { /* private mode */ }
    window.location.reload();
    return null;
  }

  function restoreFocus() {
    var selector = null;
    try {
      selector = window.sessionStorage.getItem("desk-focus");
      window.sessionStorage.removeItem("desk-focus");
    } catch (error) { return; }
    var node = selector && document.querySelector(selector);
    if (node) node.focus();
  }

  function nameKey(name) {
    return name.trim().split(/\s+/).join(" ").toLocaleLowerCase();
  }

  function element(tag, className, content) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined) node.textContent = content;
    return node;
  }

  function showError(source, message) {
    var node = source.querySelector("[data-error]");
    node.textContent = message;
    node.hidden = false;
  }

  function hideError(source) {
    var node = source.querySelector("[data-error]");
    if (node) { node.hidden = true; node.textContent = ""; }
  }

  // --- adding a player already known ---------------------------------------------------------

  function addPlayer(button) {
    button.dataset.next = "tab";
    button.dataset.focus = "[data-player-search]";
    var body = withLatePoints({ player: parseInt(button.dataset.addPlayer, 10) });
    window.TablaDesk.call(button, data.entries, "POST", body);
  }

  function playerLine(player) {
    var item = element("li", "search-result");
    var label = element("span", "who");
    label.appendChild(element("strong", "", player.display_name));
    var club = player.club ? player.club.name : say("noClub");
    label.appendChild(element("span", "muted small", " " + club + " · " + Math.round(player.rating)));
    item.appendChild(label);
    if (data.entered.indexOf(player.id) >= 0) {
      item.appendChild(element("span", "badge", say("entered")));
    } else {
      var button = element("button", "small primary", say("add"));
      button.type = "button";
      button.dataset.addPlayer = player.id;
      item.appendChild(button);
    }
    return item;
  }

  function initSearch() {
    var input = document.querySelector("[data-player-search]");
    if (!input) return;
    var results = document.querySelector("[data-search-results]");
    var status = document.querySelector("[data-search-status]");
    var timer = null;
    var asked = 0;

    function show(answer, query) {
      var players = answer.results || [];
      results.textContent = "";
      players.forEach(function (player) { results.appendChild(playerLine(player)); });
      status.textContent = !players.length ? say("none")
        : answer.count > players.length ? say("more", { shown: players.length, count: answer.count }) : "";
      var exact = players.some(function (p) { return nameKey(p.display_name) === nameKey(query); });
      var form = document.querySelector("form[data-new-player]");
      if (form && !exact) {
        var item = element("li", "search-result");
        var button = element("button", "small link", say("enterNew", { name: query }));
        button.type = "button";
        button.addEventListener("click", function () {
          form.elements.display_name.value = query;
          form.elements.display_name.focus();
        });
        item.appendChild(button);
        results.appendChild(item);
      }
    }

    function search() {
      var query = input.value.trim();
      var ticket = ++asked;
      if (query.length < 2) {
        results.textContent = "";
        status.textContent = "";
        return;
      }
      api("GET", data.players + "?search=" + encodeURIComponent(query.slice(0, NAME_MAX)))
        .then(function (answer) {
          if (ticket !== asked) return; // a later search was typed meanwhile
          if (!answer.ok) { status.textContent = errorOf(answer); return; }
          show(answer.data, query);
        });
    }

    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(search, 250);
    });
    // Enter adds the only player found, so a desk can type a name and press Enter.
    input.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      var buttons = results.querySelectorAll("[data-add-player]");
      if (buttons.length === 1) addPlayer(buttons[0]);
    });
  }

  // --- a new player ----------------------------------------------------------------------------

  // The players API's 409 for a name already in the club: "player 17 (Ana Petrovska) in club 1
  // (Demo Tabla Club) has that name already; ...".
  var NAMESAKE = /player (\d+) \((.*?)\) (?:in club \d+ \((.*)\)|without a club) has that name/;

  function showNamesake(form, answer) {
    var found = NAMESAKE.exec(errorOf(answer));
    if (!found) { showError(form, errorOf(answer)); return; }
    var node = form.querySelector("[data-error]");
    node.textContent = say("known", { name: found[2], club: found[3] || say("noClub") }) + " ";
    var button = element("button", "small primary", say("addKnown"));
    button.type = "button";
    button.dataset.addPlayer = found[1];
    node.appendChild(button);
    node.hidden = false;
    form.querySelector("[data-duplicate]").hidden = false;
  }

  function initNewPlayer() {
    var form = document.querySelector("form[data-new-player]");
    if (!form) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var submit = form.querySelector("button[type=submit]");
      var body = window.TablaDesk.formBody(form);
      hideError(form);
      submit.disabled = true;
      api("POST", data.players, body).then(function (answer) {
        if (answer.status === 409) { showNamesake(form, answer); return null; }
        if (!answer.ok) throw new Error(errorOf(answer));
        return api("POST", data.entries, withLatePoints({ player: answer.data.id }))
          .then(function (entered) {
            if (!entered.ok) throw new Error(say("createdNotEntered", { error: errorOf(entered) }));
            return reloadFocusing("form[data-new-player] input[name=display_name]");
          });
      }).catch(function (error) {
        showError(form, error.message);
      }).finally(function () {
        submit.disabled = false;
      });
    });
  }

  // --- a list of players -------------------------------------------------------------------------

  // The cells of one line: separated by tabs, else ";", else ","; "quoted, cells" allowed.
  function cells(line) {
    var separator = line.indexOf("\t") >= 0 ? "\t" : line.indexOf(";") >= 0 ? ";" : ",";
    var found = [];
    var cell = "";
    var quoted = false;
    for (var i = 0; i < line.length; i++) {
      var c = line.charAt(i);
      if (quoted) {
        if (c !== '"') cell += c;
        else if (line.charAt(i + 1) === '"') { cell += '"'; i++; }
        else quoted = false;
      } else if (c === '"' && cell.trim() === "") {
        quoted = true;
        cell = "";
      } else if (c === separator) {
        found.push(cell.trim());
        cell = "";
      } else {
        cell += c;
      }
    }
    found.push(cell.trim());
    while (found.length > 1 && found[found.length - 1] === "") found.pop();
    return found;
  }

  // A first line naming the columns: their positions, e.g. {name: 0, club: 2, rating: 1}.
  function header(first) {
    var names = first.map(function (cell) { return cell.toLowerCase(); });
    if (!/^(name|display_name|player|ime|име)$/.test(names[0] || "") && names.indexOf("name") < 0) {
      return null;
    }
    var columns = {};
    names.forEach(function (name, index) {
      if (/name|player|име|ime/.test(name) && columns.name === undefined) columns.name = index;
      else if (/club|клуб|klub/.test(name)) columns.club = index;
      else if (/rating|рејтинг/.test(name)) columns.rating = index;
    });
    return columns.name === undefined ? null : columns;
  }

  function clubNamed(name) {
    var key = nameKey(name);
    for (var i = 0; i < data.clubs.length; i++) {
      if (nameKey(data.clubs[i].name) === key) return data.clubs[i];
    }
    return null;
  }

  function defaultClub() {
    for (var i = 0; i < data.clubs.length; i++) {
      if (data.clubs[i].id === data.club) return data.clubs[i];
    }
    return null;
  }

  // The rows of a list: {line, name, club, rating, errors, state, player}.
  function parseList(content) {
    var lines = content.replace(/^\ufeff/, "").split(/\r\n|\r|\n/);
    var columns = null;
    var rows = [];
    var seen = {};
    lines.forEach(function (line, index) {
      if (!line.trim()) return;
      var found = cells(line);
      if (!rows.length && columns === null && (columns = header(found))) return;
      var row = { line: index + 1, errors: [], state: "", player: null };
      var name = found[0];
      var club = "";
      var rating = "";
      if (columns) {
        name = found[columns.name] || "";
        club = columns.club === undefined ? "" : found[columns.club] || "";
        rating = columns.rating === undefined ? "" : found[columns.rating] || "";
      } else if (found.length === 2 && /^\d+(\.\d+)?$/.test(found[1])) {
        rating = found[1];
      } else {
        club = found[1] || "";
        rating = found[2] || "";
        if (found.length > 3) row.errors.push(say("columns"));
      }
      row.name = name.split(/\s+/).join(" ").trim();
      if (!row.name) row.errors.push(say("noName"));
      if (row.name.length > NAME_MAX) row.errors.push(say("longName"));
      row.club = club ? clubNamed(club) : defaultClub();
      if (club && !row.club) row.errors.push(say("unknownClub", { club: club }));
      row.clubName = row.club ? row.club.name : club;
      row.rating = null;
      if (rating) {
        var value = /^\d+(\.\d+)?$/.test(rating) ? parseFloat(rating) : NaN;
        if (isNaN(value) || value > 5000) row.errors.push(say("rating"));
        else row.rating = value;
      }
      var key = nameKey(row.name) + "\n" + (row.club ? row.club.id : "");
      if (row.name && seen[key]) row.errors.push(say("sameAs", { line: seen[key] }));
      else seen[key] = row.line;
      rows.push(row);
    });
    return rows;
  }

  // The known player of a row: the only one of that name in that club (several: an error).
  function lookUp(row) {
    var url = data.players + "?search=" + encodeURIComponent(row.name);
    if (row.club) url += "&club=" + row.club.id;
    var matches = [];
    function page(address, left) {
      return api("GET", address).then(function (answer) {
        if (!answer.ok) throw new Error(errorOf(answer));
        answer.data.results.forEach(function (player) {
          var club = player.club ? player.club.id : null;
          if (nameKey(player.display_name) === nameKey(row.name) && club === (row.club ? row.club.id : null)) {
            matches.push(player);
          }
        });
        if (answer.data.next && left > 1) return page(answer.data.next, left - 1);
        return null;
      });
    }
    return page(url, 5).then(function () {
      if (matches.length > 1) {
        row.errors.push(say("namesakes", { count: matches.length }));
      } else if (matches.length === 1) {
        row.player = matches[0];
        row.state = data.entered.indexOf(row.player.id) >= 0 ? "entered" : "known";
      } else {
        row.state = "new";
      }
    });
  }

  function lookUpAll(rows) {
    var waiting = rows.filter(function (row) { return !row.errors.length; });
    var next = 0;
    function worker() {
      if (next >= waiting.length) return Promise.resolve();
      var row = waiting[next++];
      return lookUp(row).then(worker);
    }
    var workers = [];
    for (var i = 0; i < LOOKUPS_AT_ONCE; i++) workers.push(worker());
    return Promise.all(workers);
  }

  function what(row) {
    if (row.errors.length) return row.errors.join("; ");
    if (row.state === "known") return say("knownPlayer", { rating: Math.round(row.player.rating) });
    if (row.state === "entered") return say("alreadyEntered");
    return say("newPlayer");
  }

  function preview(panel, rows) {
    var box = panel.querySelector("[data-list-preview]");
    var table = element("table", "table list-table");
    var head = element("tr");
    String(text.listColumns || "Line,Name,Club,Rating,").split(",").forEach(function (title) {
      head.appendChild(element("th", "", title));
    });
    table.appendChild(element("thead")).appendChild(head);
    var body = element("tbody");
    rows.forEach(function (row) {
      var tr = element("tr", row.errors.length ? "error-row" : "row-" + row.state);
      tr.dataset.line = row.line;
      tr.appendChild(element("td", "line", String(row.line)));
      tr.appendChild(element("td", "name", row.name));
      tr.appendChild(element("td", "club", row.clubName || ""));
      tr.appendChild(element("td", "rating", row.rating === null ? "" : String(row.rating)));
      tr.appendChild(element("td", "what", what(row)));
      body.appendChild(tr);
    });
    table.appendChild(body);
    box.textContent = "";
    box.appendChild(element("div", "table-scroll")).appendChild(table);
    box.hidden = false;
  }

  // "players[2]: ..." of an answer, for the rows sent in that order: "line 5 (Ana): ...".
  function byLine(message, rows) {
    return message.replace(/players\[(\d+)\]/g, function (all, index) {
      var row = rows[parseInt(index, 10)];
      return row ? say("line", { line: row.line }) + " (" + row.name + ")" : all;
    });
  }

  // Creates the list's new players in one call and enters everybody in another (D37).
  function enterRows(toEnter, entriesBulk) {
    var fresh = toEnter.filter(function (row) { return row.state === "new"; });
    var created = fresh.length ? api("POST", data.playersBulk, {
      players: fresh.map(function (row) {
        var player = { display_name: row.name, club: row.club ? row.club.id : null };
        if (row.rating !== null) player.rating = row.rating;
        return player;
      })
    }) : Promise.resolve({ ok: true, data: [] });
    return created.then(function (answer) {
      if (!answer.ok) throw new Error(byLine(errorOf(answer), fresh));
      answer.data.forEach(function (player, index) { fresh[index].player = player; });
      var ids = toEnter.map(function (row) { return row.player.id; });
      return api("POST", entriesBulk, withLatePoints({ players: ids })).then(function (entered) {
        if (entered.ok) return entered.data;
        var message = byLine(errorOf(entered), toEnter);
        throw new Error(fresh.length ? say("createdListNotEntered", { error: message }) : message);
      });
    });
  }

  function initList() {
    var panel = document.querySelector("[data-player-list]");
    if (!panel) return;
    var area = panel.querySelector("textarea");
    var check = panel.querySelector("[data-list-check]");
    var enterRow = panel.querySelector("[data-list-enter-row]");
    var enter = panel.querySelector("[data-list-enter]");
    var rows = [];

    function checkList() {
      hideError(panel);
      enterRow.hidden = true;
      rows = parseList(area.value);
      if (!rows.length) { showError(panel, say("empty")); return; }
      check.disabled = true;
      check.textContent = say("checking");
      lookUpAll(rows).then(function () {
        preview(panel, rows);
        var bad = rows.filter(function (row) { return row.errors.length; });
        var toEnter = rows.filter(function (row) { return row.state === "new" || row.state === "known"; });
        var fresh = toEnter.filter(function (row) { return row.state === "new"; });
        if (bad.length) showError(panel, say("fix"));
        else if (!toEnter.length) showError(panel, say("nothing"));
        else {
          enter.textContent = say("enterList", { count: toEnter.length, new: fresh.length });
          enterRow.hidden = false;
        }
      }).catch(function (error) {
        showError(panel, error.message);
      }).finally(function () {
        check.disabled = false;
        check.textContent = check.dataset.label;
      });
    }

    function enterList() {
      var toEnter = rows.filter(function (row) { return row.state === "new" || row.state === "known"; });
      hideError(panel);
      enter.disabled = true;
      enterRows(toEnter, data.entriesBulk).then(function () {
        return reloadFocusing("[data-player-list] textarea");
      }).catch(function (error) {
        showError(panel, error.message);
      }).finally(function () {
        enter.disabled = false;
      });
    }

    check.dataset.label = check.textContent;
    check.addEventListener("click", checkList);
    enter.addEventListener("click", enterList);
    area.addEventListener("input", function () { enterRow.hidden = true; });
    panel.querySelector("[data-csv]").addEventListener("change", function (event) {
      var file = event.target.files && event.target.files[0];
      if (!file) return;
      var reader = new FileReader();
      reader.onload = function () {
        area.value = String(reader.result);
        event.target.value = "";
        checkList();
      };
      reader.onerror = function () { showError(panel, String(reader.error)); };
      reader.readAsText(file);
    });
  }

  // --- seeds -------------------------------------------------------------------------------------

  function seedProblems(inputs) {
    var count = inputs.length;
    var given = {};
    var empty = [];
    var twice = [];
    inputs.forEach(function (input) {
      var seed = parseInt(input.value, 10);
      input.removeAttribute("aria-invalid");
      if (isNaN(seed)) {
        empty.push(input.closest("tr").querySelector(".name").firstChild.textContent.trim());
        input.setAttribute("aria-invalid", "true");
        return;
      }
      if (given[seed] && twice.indexOf(seed) < 0) twice.push(seed);
      given[seed] = (given[seed] || 0) + 1;
      if (given[seed] > 1 || seed < 1 || seed > count) input.setAttribute("aria-invalid", "true");
    });
    var missing = [];
    for (var seed = 1; seed <= count; seed++) if (!given[seed]) missing.push(seed);
    if (!empty.length && !twice.length && !missing.length) return "";
    var parts = [say("seeds", { count: count })];
    if (empty.length) parts.push(say("seedsEmpty", { names: empty.join(", ") }));
    if (twice.length) parts.push(say("seedsTwice", { seeds: twice.join(", ") }));
    if (missing.length) parts.push(say("seedsMissing", { seeds: missing.join(", ") }));
    return parts.join(" ");
  }

  function initSeeds() {
    var save = document.querySelector("[data-seed-save]");
    if (!save) return;
    var inputs = Array.prototype.slice.call(document.querySelectorAll("[data-entry-seed]"));
    save.addEventListener("click", function () {
      var problems = seedProblems(inputs);
      if (problems) { window.TablaDesk.showError(save, problems); return; }
      var seeds = {};
      inputs.forEach(function (input) { seeds[input.dataset.entrySeed] = parseInt(input.value, 10); });
      window.TablaDesk.call(save, save.dataset.url, "POST", { method: "manual", seeds: seeds });
    });
    inputs.forEach(function (input) {
      input.addEventListener("input", function () {
        save.classList.add("primary");
        var hint = document.querySelector("[data-seed-hint]");
        if (hint) hint.textContent = say("seedsUnsaved");
      });
    });
  }

  // --- claim codes -------------------------------------------------------------------------------

  function showClaimCode(event) {
    var source = event.detail.source;
    if (!source.dataset || source.dataset.claimCode === undefined) return;
    var answer = event.detail.data;
    var node = document.querySelector("[data-claim-output]");
    var url = window.location.origin + data.claim;
    var when = new Date(answer.expires_at).toLocaleDateString(document.documentElement.lang || undefined,
      { day: "numeric", month: "long", year: "numeric" });
    var parts = say("claim", { name: source.dataset.claimCode, code: "\u0000", date: when, url: url }).split("\u0000");
    node.textContent = parts[0];
    node.appendChild(element("strong", "claim-code", answer.code));
    node.appendChild(document.createTextNode(parts[1] || ""));
    if (answer.invitation_url && source.dataset.invitationPage) {
      // The same code as a link: opened (or scanned from its QR code) it signs the player up.
      node.appendChild(element("br"));
      var link = element("a", "invitation-link", answer.invitation_url);
      link.href = answer.invitation_url;
      link.setAttribute("data-invitation-url", "");
      node.appendChild(link);
      node.appendChild(document.createTextNode(" · "));
      var page = element("a", "", source.dataset.invitationLabel || "QR");
      page.href = source.dataset.invitationPage;
      node.appendChild(page);
    }
    node.hidden = false;
    node.scrollIntoView({ block: "nearest" });
  }

  // --- a list given with a new tournament (D120) -------------------------------------------
  //
  // window.TablaPlayerList for static/js/tournament-new.js: check(config, content) reads and
  // looks up a list as "Check the list" does (config as the desk's #desk-registration, with no
  // tournament yet), resolving with its rows or rejecting with the lines in error; enter(rows,
  // url) then enters them into the tournament just created, as "Enter the players" does.
  function checkList(config, content) {
    data = config;
    text = config.text || {};
    var rows = parseList(content);
    if (!rows.length) return Promise.reject(new Error(say("empty")));
    return lookUpAll(rows).then(function () {
      var bad = rows.filter(function (row) { return row.errors.length; });
      if (bad.length) {
        throw new Error(bad.map(function (row) {
          return say("line", { line: row.line }) + " (" + row.name + "): " + row.errors.join("; ");
        }).join(" \u00b7 "));
      }
      return rows;
    });
  }

  window.TablaPlayerList = {
    check: checkList,
    enter: function (rows, url) { return enterRows(rows, url); }
  };

  // The tab's elements, on the page and after each swap of its fragment: each node once.
  var bound = [];

  function bind() {
    var node = document.getElementById("desk-registration");
    if (!node || bound.indexOf(node) >= 0) return false;
    bound = [node];
    data = JSON.parse(node.textContent);
    text = data.text || {};
    initSearch();
    initNewPlayer();
    initList();
    initSeeds();
    return true;
  }

  function init() {
    if (!window.TablaDesk || !bind()) return;
    document.addEventListener("desk:updated", bind);
    document.addEventListener("desk:done", showClaimCode);
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("[data-add-player]");
      if (button) addPlayer(button);
    });
    restoreFocus();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
