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
// checkbox), "json", "lines" (a textarea, one item a line), or text (the default). Empty fields
// are left out unless they carry data-keep-empty (then null). A field named "a.b" fills
// {"a": {"b": ...}}. data-next is "reload" (the default), "none", or a URL in which "{id}" is
// replaced by the answer's id. An error answer's message is shown in the form's [data-error]
// (or next to the button) and nothing else changes.
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
    if (type === "lines") {
      return raw.split(/\r?\n/).map(function (line) { return line.trim(); })
        .filter(function (line) { return line !== ""; });
    }
    return raw;
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
        throw new Error((field.dataset.label || field.name) + ": " + error.message);
      }
      if (value === undefined || (typeof value === "number" && isNaN(value))) {
        if (field.dataset.keepEmpty === undefined) return;
        value = null;
      }
      put(body, field.name, value);
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
      } else if (next !== "none") {
        window.location.assign(next.replace("{id}", data && data.id !== undefined ? data.id : ""));
      }
      document.dispatchEvent(new CustomEvent("desk:done", { detail: { source: source, data: data } }));
      return data;
    }).catch(function (error) {
      showError(source, error.message);
    }).finally(function () {
      Array.prototype.forEach.call(buttons, function (b) { b.disabled = false; });
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
})();
