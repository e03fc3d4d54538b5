"""Checks on the connector lines tournament.js draws between bracket matches, in the browser."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tournaments.models import Tournament
from tournaments.web import pages

# Per drawn section (.bracket, in page order): its key, the number of connector paths, the
# matches whose winner goes to a match of the same section, and each path's ends next to the
# edges of the boxes it joins (from's right edge middle, to's left edge middle).
MEASURE = """() => Array.from(document.querySelectorAll('.bracket')).map(bracket => {
  const svg = bracket.querySelector(':scope > svg.bracket-lines');
  const paths = svg ? Array.from(svg.querySelectorAll('path')) : [];
  const origin = svg ? svg.getBoundingClientRect() : {left: 0, top: 0};
  const box = key => bracket.querySelector(`.bracket-match[data-key="${key}"]`)
    .getBoundingClientRect();
  return {
    section: bracket.dataset.section,
    overlay: Boolean(svg),
    paths: paths.length,
    onPath: paths.filter(p => p.classList.contains('on-path')).length,
    ends: paths.map(p => {
      const length = p.getTotalLength();
      const start = p.getPointAtLength(0), end = p.getPointAtLength(length);
      const a = box(p.dataset.from), b = box(p.dataset.to);
      return [
        start.x + origin.left - a.right, start.y + origin.top - (a.top + a.height / 2),
        end.x + origin.left - b.left, end.y + origin.top - (b.top + b.height / 2),
      ];
    }),
  };
})"""


# True once MEASURE finds what assert_connectors asks for: the lines are drawn for the layout as
# it stands (tournament.js draws them again a frame after a resize, a swap or the fonts).
SETTLED = (
    """expected => { try {
  const drawn = ("""
    + MEASURE
    + """)();
  return drawn.every(s => s.overlay)
    && JSON.stringify(drawn.map(s => [s.section, s.paths])) === JSON.stringify(expected)
    && drawn.every(s => s.ends.every(ends => ends.every(offset => Math.abs(offset) <= 1.5)));
} catch (error) { return false; } }"""
)


def expected_connectors(tournament_pk: int) -> list[tuple[str, int]]:
    """(section name, matches whose winner goes on within that section), in page order."""
    tournament = Tournament.objects.get(pk=tournament_pk)
    expected = []
    for bracket in pages.tournament_brackets(tournament):
        for section in bracket["sections"]:
            matches = [m for r in section["rounds"] for m in r["matches"]]
            keys = {m["key"] for m in matches}
            expected.append((section["name"], sum(m["winner_to"] in keys for m in matches)))
    return expected


def assert_connectors(page: Any, tournament_pk: int) -> list[dict[str, Any]]:
    """The overlay exists in every drawn section with one path per match that has a next match
    in that section, each path joining the two boxes' edges. Waits for that first (a function,
    not an expression: the page's CSP forbids eval), then measures and says what is off."""
    expected = expected_connectors(tournament_pk)
    try:
        page.wait_for_function(SETTLED, arg=[list(pair) for pair in expected])
    except PlaywrightTimeoutError:
        pass  # the assertions below say what is off
    drawn = page.evaluate(MEASURE)
    assert all(section["overlay"] for section in drawn)
    assert [(s["section"], s["paths"]) for s in drawn] == expected
    for section in drawn:
        for ends in section["ends"]:
            assert all(abs(offset) <= 1.5 for offset in ends), (section["section"], ends)
    return drawn
