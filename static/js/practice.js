// The hint button of a practice match (templates/games/_practice_hint.html): asks the API for
// the evaluator's best play for the dice on the table, shows it as text (a live region, read
// out by screen readers) and draws it on the board (board_play.js showHint: arrows from the
// checkers to where they go, until the player moves; docs/decisions.md D146). The text goes
// once the decision it was for is no longer on the page (a roll, a play sent, a new turn).
// While the board takes a play, the button sits under its Submit and Undo, where the player
// looks (on a phone the page's end is far below the board); match.js replaces the board's
// part of the page at every update, so the section is put back there after each, and hidden
// once the match is over.
(function () {
  "use strict";
  const section = document.getElementById("practice-hint");
  if (!section) return;
  const button = section.querySelector("[data-hint-button]");
  const text = section.querySelector("[data-hint-text]");
  const live = document.getElementById("match-live");
  let shownFor = null; // the decision ("game:ply") the text is for

  function place() {
    const panel = live && live.querySelector("[data-board-play]");
    if (panel) {
      const buttons = panel.querySelector(".play-buttons");
      if (section.parentNode !== panel) {
        if (buttons) buttons.after(section);
        else panel.appendChild(section);
      }
    } else if (live && section.previousElementSibling !== live) {
      live.after(section);
    }
    section.classList.toggle("in-play", Boolean(panel));
    // Once the match is over there is no hint to give: the button goes, as on a page loaded
    // then (the page offers it only while the match is in progress).
    const status = live && live.querySelector("[data-match-status]");
    section.hidden = Boolean(status) && status.dataset.matchStatus !== "in_progress";
  }

  function decisionOnPage() {
    const node = document.getElementById("client-data");
    if (!node) return null;
    const client = JSON.parse(node.textContent);
    return client.game + ":" + client.ply;
  }

  button.addEventListener("click", async function () {
    button.disabled = true;
    try {
      const response = await fetch(section.dataset.hintUrl, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      const body = await response.json();
      if (!response.ok) {
        text.textContent = body.detail || String(response.status);
        shownFor = null;
        return;
      }
      text.textContent = body.text;
      shownFor = body.game + ":" + body.ply;
      section.dataset.hintDrawn = String(
        Boolean(window.TablaBoardPlay && window.TablaBoardPlay.showHint(shownFor, body.play))
      );
    } catch (error) {
      text.textContent = String(error);
    } finally {
      button.disabled = false;
    }
  });

  place();
  document.addEventListener("tabla:updated", function () {
    place();
    if (shownFor !== null && decisionOnPage() !== shownFor) {
      text.textContent = "";
      shownFor = null;
      delete section.dataset.hintDrawn;
    }
  });
})();
