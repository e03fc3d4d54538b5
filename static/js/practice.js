// The hint button of a practice match (templates/games/_practice_hint.html): asks the API for
// the evaluator's best play for the dice on the table, shows it as text after "Best play:" (a
// live region, read out by screen readers) and draws it on the board (board_play.js showHint:
// arrows from the checkers to where they go, until the player moves; docs/decisions.md D146).
// The text, an answer's refusal as well, goes once the decision it was for is no longer the
// page's (a roll, a play sent, a new turn). The button is there only while the player has dice
// to play (a hint needs dice: not while a roll, an answer to a double or the opponent is due).
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
  const label = section.querySelector("[data-hint-label]");
  const live = document.getElementById("match-live");
  let shownFor = null; // the decision ("game:ply") the hint drawn is for
  let textFor = null; // the decision ("game:ply:play" or ":wait") the text is for

  // Dice of the player's to play: the board takes a play, or the list of legal plays is there.
  function playDue() {
    return Boolean(live && live.querySelector("[data-board-play], #play-form"));
  }

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
    const over = Boolean(status) && status.dataset.matchStatus !== "in_progress";
    section.hidden = over || !playDue();
  }

  // The decision on the page: its game and ply, and whether its dice are on the table (a roll
  // leaves the ply as it is).
  function decisionOnPage() {
    const node = document.getElementById("client-data");
    if (!node) return null;
    const client = JSON.parse(node.textContent);
    return client.game + ":" + client.ply + ":" + (playDue() ? "play" : "wait");
  }

  function say(words, hint) {
    text.textContent = words;
    label.hidden = !hint;
  }

  function clear() {
    say("", false);
    shownFor = null;
    textFor = null;
    delete section.dataset.hintDrawn;
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
        say(body.detail || String(response.status), false);
        shownFor = null;
        textFor = decisionOnPage();
        return;
      }
      say(body.text, true);
      shownFor = body.game + ":" + body.ply;
      textFor = shownFor + ":play"; // a hint is for dice on the table
      section.dataset.hintDrawn = String(
        Boolean(window.TablaBoardPlay && window.TablaBoardPlay.showHint(shownFor, body.play))
      );
    } catch (error) {
      say(String(error), false);
      textFor = decisionOnPage();
    } finally {
      button.disabled = false;
    }
  });

  place();
  document.addEventListener("tabla:updated", function () {
    place();
    if (textFor !== null && decisionOnPage() !== textFor) clear();
  });
})();
