"""A Swiss's first round follows the organiser's seeding; a late entrant's missed rounds are
not byes."""

import pytest

from tests.tournaments.factories import PlayerFactory
from tests.tournaments.helpers import match_win

pytestmark = pytest.mark.django_db


def swiss_with_entries(api, players, **fields):
    body = {"name": "Swiss", "match_length": 1, "format": "swiss", **fields}
    pk = api.post("tournaments:tournament-list", body, status=201)["id"]
    api.post("tournaments:registration-open", pk=pk)
    entries = [
        api.post("tournaments:entry-list", {"player": p.pk}, status=201, pk=pk) for p in players
    ]
    return pk, entries


def round_pairings(api, pk, number):
    round_ = [r for r in api.get("tournaments:round-list", pk=pk) if r["number"] == number][0]
    return round_["pairings"]


def seeds_of(pairing):
    return tuple(p["seed"] if p else None for p in pairing["players"])


def test_round_one_follows_manual_seeds_not_ratings(org_api):
    # Seed 1 is the lowest rated: pairing by rating would give the bye to seed 2.
    players = [PlayerFactory(display_name=f"S{i}", rating=1500.0 + 10 * i) for i in range(1, 8)]
    pk, entries = swiss_with_entries(org_api, players, swiss_rounds=3)
    seeds = {str(entry["id"]): number for number, entry in enumerate(entries, start=1)}
    org_api.post("tournaments:seed", {"method": "manual", "seeds": seeds}, pk=pk)
    org_api.post("tournaments:start", pk=pk)

    pairings = round_pairings(org_api, pk, 1)
    played = sorted(tuple(sorted(seeds_of(m))) for m in pairings if m["status"] != "bye")
    byes = [seeds_of(m)[0] for m in pairings if m["status"] == "bye"]
    assert played == [(1, 4), (2, 5), (3, 6)]
    assert byes == [7]


def test_a_late_entrants_missed_round_is_not_a_bye(org_api):
    players = [PlayerFactory(display_name=f"S{i}", rating=1800.0 - 10 * i) for i in range(1, 7)]
    late = PlayerFactory(display_name="Late", rating=1400.0)
    pk, _ = swiss_with_entries(org_api, players, swiss_rounds=3, late_entry_until_round=2)
    org_api.post("tournaments:start", pk=pk)
    for match in round_pairings(org_api, pk, 1):  # the higher seeds win round 1
        one, two = match["players"]
        match_win(
            org_api,
            match["match_id"],
            one["player"] if one["seed"] < two["seed"] else two["player"],
        )
    entry = org_api.post("tournaments:entry-list", {"player": late.pk}, status=201, pk=pk)
    assert entry["joined_round"] == 2

    rows = {r["player"]: r for r in org_api.get("tournaments:standing-list", pk=pk)}
    late_row = rows[late.pk]
    assert late_row["byes"] == 0 and late_row["played"] == 0 and late_row["match_points"] == 0

    org_api.post("tournaments:round-pair", pk=pk, status=201)
    bye = [m for m in round_pairings(org_api, pk, 2) if m["status"] == "bye"]
    # 7 players: the bye goes to the lowest-ranked player who has not had one; the late entrant
    # (0 points, ranked last) has had none, as a missed round is not a bye.
    assert [m["players"][0]["player"] for m in bye] == [late.pk]
    rows = {r["player"]: r for r in org_api.get("tournaments:standing-list", pk=pk)}
    assert rows[late.pk]["byes"] == 1
    missed = [m for m in round_pairings(org_api, pk, 1) if m["status"] == "missed"]
    assert [m["players"][0]["player"] for m in missed] == [late.pk]
