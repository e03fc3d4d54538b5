// The new-tournament form with its players (templates/tournaments/_settings_form.html, D120).
// With a list pasted, or with "Create and start", the form is not posted by desk.js alone: the
// list is read and looked up first (desk-players.js, as the desk's "Check the list"), so a
// wrong line stops everything before the tournament exists; then the tournament is created,
// its registration opened, the players entered (as "Enter the players"), and with "Create and
// start" the tournament started (seeded by its seeding method, by rating unless changed); the
// page then goes to its desk. A step that fails after the creation says so, with the desk's
// link. Without a list, "Create the tournament" posts the form as before.
(function () {
  "use strict";

  var form = document.querySelector("form[data-settings-form]");
  var node = document.getElementById("new-tournament-players");
  if (!form || !node || !window.TablaDesk || !window.TablaPlayerList) return;
  var config = JSON.parse(node.textContent);
  var area = form.querySelector("textarea[name=players]");

  function say(key, values) {
    return (config.text[key] || key).replace(/%\((\w+)\)s/g, function (all, name) {
      return values && values[name] !== undefined ? String(values[name]) : all;
    });
  }

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  // POST to the API; resolves with the answer's data, rejects with its message.
  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Accept": "application/json", "Content-Type": "application/json",
        "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body || {})
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      var parsed = type.indexOf("json") >= 0 ? response.json() : Promise.resolve(null);
      return parsed.then(function (data) {
        if (!response.ok) throw new Error(window.TablaDesk.errorText(response.status, data));
        return data;
      });
    });
  }

  function at(address, id) { return address.replace("{id}", String(id)); }

  function buttons(disabled) {
    form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = disabled; });
  }

  function failed(message, id) {
    var box = form.querySelector(".form-submit [data-error]");
    box.textContent = id === null ? message : say("createdNot", { error: message }) + " ";
    if (id !== null) {
      var link = document.createElement("a");
      link.href = at(config.desk, id);
      link.textContent = say("toDesk");
      box.appendChild(link);
    }
    box.hidden = false;
  }

  form.addEventListener("submit", function (event) {
    var start = !!(event.submitter && event.submitter.hasAttribute("data-create-start"));
    if (!start && !area.value.trim()) return; // desk.js posts the form as before
    event.preventDefault();
    event.stopPropagation();
    form.querySelector(".form-submit [data-error]").hidden = true;
    var body;
    try {
      body = window.TablaDesk.formBody(form);
    } catch (error) {
      failed(error.message, null);
      return;
    }
    var club = form.querySelector("select[name=club]");
    config.club = club && club.value ? parseInt(club.value, 10) : null; // lines without a club
    var id = null;
    buttons(true);
    window.TablaPlayerList.check(config, area.value).then(function (rows) {
      return post(form.dataset.api, body).then(function (tournament) {
        id = tournament.id;
        return post(at(config.open, id));
      }).then(function () {
        return window.TablaPlayerList.enter(rows, at(config.entriesBulk, id));
      });
    }).then(function () {
      return start ? post(at(config.start, id)) : null;
    }).then(function () {
      window.location.assign(at(config.desk, id));
    }).catch(function (error) {
      failed(error.message, id);
      buttons(false);
    });
  });
})();
