// The hint button of a practice match (templates/games/_practice_hint.html): asks the API for
// the evaluator's best play for the dice on the table and shows it as text.
(function () {
  "use strict";
  const section = document.getElementById("practice-hint");
  if (!section) return;
  const button = section.querySelector("[data-hint-button]");
  const text = section.querySelector("[data-hint-text]");
  button.addEventListener("click", async function () {
    button.disabled = true;
    try {
      const response = await fetch(section.dataset.hintUrl, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      const body = await response.json();
      text.textContent = response.ok ? body.text : body.detail || String(response.status);
    } catch (error) {
      text.textContent = String(error);
    } finally {
      button.disabled = false;
    }
  });
})();
