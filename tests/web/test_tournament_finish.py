"""The finish of a tournament page, as a visitor sees it: the podium of a finished tournament
(and none before), round names in the brackets, the grand-final reset only when it may be
played (docs/decisions.md D32), Swiss and round-robin pages that say "Rounds", and standings
with the columns the format uses, their legend, and a bracket's shared places (D33, D34)."""

import html as html_lib
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import Api
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import higher_seed, play_all, tournament_running

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(django_capture_on_commit_callbacks):
    return Api(UserFactory(username="organiser"), django_capture_on_commit_callbacks)


@pytest.fixture
def players(db):
    return [PlayerFactory(display_name=f"P{i}", rating=1800.0 - 20 * i) for i in range(1, 9)]


def page(pk: int) -> str:
    """The tournament page's text as a browser shows it (entities decoded)."""
    response = Client().get(reverse("tournaments_web:tournament", kwargs={"pk": pk}))
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def part(html: str, start: str, end: str = "</section>") -> str:
    begin = html.index(start)
    return html[begin : html.index(end, begin)]


def podium(html: str) -> list[tuple[str, str]]:
    """(place label, names) of each step of the podium banner, champion first."""
    banner = part(html, "data-podium")
    steps = re.findall(
        r'data-place="\d">\s*<span class="podium-label">([^<]+)</span>\s*'
        r'<span class="podium-names">(.*?)</span>',
        banner,
        re.DOTALL,
    )
    return [(label, re.sub(r"<[^>]+>", "", names)) for label, names in steps]


def places(html: str, section: str = "main") -> list[tuple[str, str]]:
    """(place, player) of each row of a standings table."""
    table = part(html, f'data-section="{section}"', "</table>")
    rows = re.findall(r"<td data-place>([^<]*)</td>\s*<td><a [^>]*>([^<]+)</a>", table)
    return rows


def headers(html: str, section: str = "main") -> list[str]:
    table = part(html, f'<table class="table sortable" data-sortable data-section="{section}"')
    return re.findall(r'data-column="(\w+)"', table.split("</thead>")[0])


def test_a_finished_single_elimination_has_a_podium_of_four(api, players):
    pk = tournament_running(api, players, format="single_elimination", third_place=True)["id"]
    play_all(api, pk)
    html = page(pk)
    assert podium(html) == [("Champion", "P1"), ("2nd", "P2"), ("3rd", "P3"), ("4th", "P4")]
    assert places(html)[3:] == [("4", "P4"), ("5–8", "P5"), ("5–8", "P6"), ("5–8", "P7"),
                                ("5–8", "P8")]  # fmt: skip


def test_without_a_third_place_match_the_semi_final_losers_are_joint_third(api, players):
    pk = tournament_running(api, players[:4], format="single_elimination")["id"]
    play_all(api, pk)
    html = page(pk)
    assert podium(html) == [("Champion", "P1"), ("2nd", "P2"), ("joint 3rd", "P3, P4")]
    assert places(html) == [("1", "P1"), ("2", "P2"), ("3–4", "P3"), ("3–4", "P4")]


def test_no_podium_before_the_end(api, players):
    pk = tournament_running(api, players[:4], format="single_elimination")["id"]
    assert "data-podium" not in page(pk)


def test_elimination_rounds_have_names_and_its_table_no_tie_breaks(api, players):
    pk = tournament_running(api, players, format="single_elimination", third_place=True)["id"]
    play_all(api, pk)
    html = page(pk)
    bracket = part(html, 'id="bracket"')
    assert re.findall(r"<h4>([^<]+)</h4>", bracket) == ["Quarter-final", "Semi-final", "Final"]
    assert "Round 1" not in bracket and "<h3>Third place</h3>" in bracket
    assert headers(html) == ["played", "match_wins", "match_losses", "games_won", "points_for",
                             "points_against", "point_diff", "forfeits"]  # fmt: skip
    legend = part(html, "data-legend", "</div>\n")
    assert "Buchholz" not in legend and "Ranked by the round reached" in legend
    for abbreviation in ["P", "W", "L", "GW", "PF", "PA", "+/−", "FF"]:
        assert f"<dt>{abbreviation}</dt>" in legend
    assert '<a href="#bracket">Bracket</a>' in html and 'href="#rounds"' not in html


def test_double_elimination_hides_the_reset_it_does_not_need(api, players):
    pk = tournament_running(api, players[:6], format="double_elimination")["id"]
    play_all(api, pk)  # the top seed wins everything, the grand final too
    html = page(pk)
    assert 'data-section="reset"' not in html and 'data-section="grand_final"' in html
    headings = re.findall(r"<h4>([^<]+)</h4>", part(html, 'id="bracket"'))
    assert headings[-1] == "Losers' final" and "Winners' final" in headings
    assert "<h3>Winners bracket</h3>" in html
    assert podium(html) == [("Champion", "P1"), ("2nd", "P2"), ("3rd", "P3"), ("4th", "P4")]
    assert [place for place, _ in places(html)] == ["1", "2", "3", "4", "5–6", "5–6"]


def test_the_reset_shows_if_needed_while_the_grand_final_is_undecided(api, players):
    pk = tournament_running(api, players[:4], format="double_elimination")["id"]
    play_all(api, pk, limit=5)  # every match but the grand final: P1 v P2, P2 from the losers
    reset = part(page(pk), 'data-section="reset"', "</div>\n   </div>")
    assert "if needed" in reset and "Played only if P2 wins the grand final." in reset
    assert "bracket-player" not in reset  # no empty box: the note stands in for the players


def test_the_reset_is_a_match_once_the_losers_bracket_player_wins_the_final(api, players):
    pk = tournament_running(api, players[:4], format="double_elimination")["id"]

    def choose(match):  # the losers' bracket player (side 1) wins the first grand final
        return match["players"][1]["player"] if match["key"] == "GF" else higher_seed(match)

    play_all(api, pk, choose)
    reset = part(page(pk), 'data-section="reset"', "</div>\n   </div>")
    assert "if needed" not in reset and reset.count('class="bracket-player') == 2


def test_a_consolation_podium_names_the_flight_winner(api, players):
    pk = tournament_running(api, players, format="consolation")["id"]
    play_all(api, pk)
    html = page(pk)
    assert podium(html)[:2] == [("Champion", "P1"), ("2nd", "P2")]
    extra = part(html, "data-podium-extra", "</li>")
    assert "Consolation flight winner" in extra and ">P5</a>" in extra
    assert re.findall(r"<h4>(Consolation [^<]+)</h4>", html)[-1] == "Consolation final"


def test_a_swiss_says_rounds_and_shows_the_tie_breaks_it_uses(api, players):
    pk = tournament_running(api, players[:6], format="swiss", swiss_rounds=3)["id"]
    for _ in range(2):
        play_all(api, pk)
        api.post("tournaments:round-pair", {}, status=201, pk=pk)
    play_all(api, pk)
    html = page(pk)
    assert "Bracket" not in html and 'id="bracket"' not in html
    assert '<a href="#rounds">Rounds</a>' in html and 'id="rounds"' in html
    assert re.findall(r"<h2>(Round \d)</h2>", html) == ["Round 1", "Round 2", "Round 3"]
    assert headers(html) == ["played", "match_wins", "match_losses", "match_points",
                             "games_won", "points_for", "points_against", "point_diff",
                             "buchholz", "median_buchholz", "sonneborn_berger",
                             "head_to_head", "byes", "forfeits"]  # fmt: skip
    legend = part(html, "data-legend", "</div>\n")
    assert "Ranked by MP, Bh, mBh, SB, H2H, +/−, in this order." in legend
    for meaning in ["Buchholz: the sum of the opponents' match points",
                    "median Buchholz: Buchholz without the best and the worst opponent",
                    "Sonneborn-Berger: the sum of the match points of the opponents beaten",
                    "head to head: matches won against the players tied with them",
                    "byes: rounds without an opponent"]:  # fmt: skip
        assert meaning in legend
    assert [label for label, _ in podium(html)] == ["Champion", "2nd", "3rd"]


def test_a_round_robin_shows_only_the_tie_breaks_of_its_order(api, players):
    fields = {"format": "round_robin", "tiebreak_order": ["match_points", "point_diff"]}
    pk = tournament_running(api, players[:4], **fields)["id"]
    play_all(api, pk)
    html = page(pk)
    assert headers(html) == ["played", "match_wins", "match_losses", "match_points",
                             "games_won", "points_for", "points_against", "point_diff",
                             "forfeits"]  # fmt: skip
    assert "Ranked by MP, +/−, in this order." in html and "Buchholz" not in html
    assert '<a href="#rounds">Rounds</a>' in html and "Bracket" not in html


def test_groups_then_knockout_show_the_knockout_bracket_and_the_group_rounds(api, players):
    fields = {"format": "round_robin", "groups": 2, "knockout_per_group": 2}
    pk = tournament_running(api, players, **fields)["id"]
    play_all(api, pk)
    html = page(pk)
    assert re.findall(r'<nav class="tabs">(.*?)</nav>', html)[0].count("<a ") == 3
    knockout = part(html, 'id="bracket"')
    assert re.findall(r"<h4>([^<]+)</h4>", knockout) == ["Semi-final", "Final"]
    assert re.findall(r"<h2>(Round \d)</h2>", html) == ["Round 1", "Round 2", "Round 3"]
    assert "buchholz" in headers(html, "group-1") and "buchholz" not in headers(html, "knockout")
    assert html.count("data-legend") == 2  # under the groups, and under the knock-out
    assert podium(html)[0] == ("Champion", "P1") and len(podium(html)) == 3


LAYOUT = """() => {
  const lines = node => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size;
  };
  const clipped = Array.from(document.querySelectorAll('.bracket')).flatMap(bracket =>
    Array.from(bracket.querySelectorAll('.bracket-match .key'))
      .filter(key => key.getBoundingClientRect().top < bracket.getBoundingClientRect().top)
      .map(key => key.textContent));
  const steps = Array.from(document.querySelectorAll('.podium-place'),
                           step => step.getBoundingClientRect());
  return {
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    placeLines: Array.from(document.querySelectorAll('td[data-place]'), lines),
    clippedKeys: clipped,
    podiumRows: new Set(steps.map(r => Math.round(r.top))).size,
  };
}"""


@pytest.mark.django_db(transaction=True)
def test_the_finish_fits_a_phone_and_a_desktop(
    live_server, new_page, django_capture_on_commit_callbacks, artifacts
):
    """At 390 px the page does not scroll sideways (the bracket and the table scroll in their
    cards), a shared place such as "5–8" stays on one line, and no match key is cut off by the
    bracket's edge (a third-place section has no round name above its match); at 1280 px the
    podium's places stand in one row."""
    api = Api(UserFactory(username="organiser"), django_capture_on_commit_callbacks)
    field = [PlayerFactory(display_name=f"P{i}", rating=1800.0 - 20 * i) for i in range(1, 9)]
    pk = tournament_running(api, field, format="single_elimination", third_place=True)["id"]
    play_all(api, pk)
    for width, height, name in [(390, 844, "phone"), (1280, 800, "desktop")]:
        page, console = new_page(width, height)
        page.goto(f"{live_server.url}/tournaments/{pk}/")
        page.screenshot(path=str(artifacts / f"tournament-finish-{name}.png"), full_page=True)
        layout = page.evaluate(LAYOUT)
        assert layout["overflow"] <= 0, name
        assert layout["placeLines"] == [1] * 8, name
        assert layout["clippedKeys"] == [], name
        if name == "desktop":
            assert layout["podiumRows"] == 1
        assert console.errors == []


def test_the_finish_is_translated_into_macedonian(api, players):
    pk = tournament_running(api, players, format="single_elimination", third_place=True)["id"]
    play_all(api, pk)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "mk"
    url = reverse("tournaments_web:tournament", kwargs={"pk": pk})
    html = html_lib.unescape(client.get(url).content.decode())
    assert re.findall(r"<h4>([^<]+)</h4>", html) == ["Четвртфинале", "Полуфинале", "Финале"]
    assert podium(html)[:2] == [("Шампион", "P1"), ("2. место", "P2")]
    assert "Подредени по достигнатото коло" in html and "5–8" in html
