"""A knock-out drawn from groups shows the seeds its own draw gave (issue 14, docs/decisions.md
D26): the group winners are knock-out seeds 1 and 2, whatever their seeds in the groups."""

import pytest

from tests.tournaments.helpers import lower_seed, play_all, tournament_running

pytestmark = pytest.mark.django_db


def knockout_after_upsets(api, players):
    """Two groups of four; every group match is won by the lower seed, so the group winners
    are seeds 8 (group 1) and 7 (group 2), the runners-up seeds 5 and 6."""
    fields = {"format": "round_robin", "groups": 2, "knockout_per_group": 2}
    pk = tournament_running(api, players, **fields)["id"]
    assert play_all(api, pk, lower_seed, limit=12) == 12  # the group stage, all drawn at once
    return pk


def test_the_knockout_bracket_and_pairings_show_the_knockout_seeds(org_api, players):
    pk = knockout_after_upsets(org_api, players)
    bracket = org_api.get("tournaments:bracket", pk=pk, params={"stage": "knockout"})
    first = bracket["sections"][0]["rounds"][0]["matches"]
    assert [[p["seed"] for p in m["players"]] for m in first] == [[1, 4], [2, 3]]
    top = first[0]["players"][0]
    assert top["player"] == players[7].pk  # P8 won group 1: knock-out seed 1 (group seed 8)

    rounds = org_api.get("tournaments:round-list", pk=pk)
    pairings = [m for r in rounds if r["stage"] == "knockout" for m in r["pairings"]]
    assert [[p["seed"] for p in m["players"]] for m in pairings[:2]] == [[1, 4], [2, 3]]
    group_pairings = [m for r in rounds if r["stage"] == "main" for m in r["pairings"]]
    group_seeds = {p["player"]: p["seed"] for m in group_pairings for p in m["players"]}
    assert group_seeds[players[7].pk] == 8  # the group stage keeps the entries' seeds
