"""Steps shared by the end-to-end tests: set a tournament up and play its matches through the
real routes (the organiser reports over-the-board results, which count at once)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.tournaments.conftest import Api

Chooser = Callable[[dict[str, Any]], int]


def tournament_running(api: Api, players: list[Any], **fields: Any) -> dict[str, Any]:
    """Create, open registration, register ``players``, seed by rating and start."""
    body = {"name": "Cup", "match_length": 1, **fields}
    tournament = api.post("tournaments:tournament-list", body, status=201)
    pk = tournament["id"]
    api.post("tournaments:registration-open", pk=pk)
    for player in players:
        api.post("tournaments:entry-list", {"player": player.pk}, status=201, pk=pk)
    api.post("tournaments:seed", {"method": "rating"}, pk=pk)
    return api.post("tournaments:start", pk=pk)


def open_matches(api: Api, pk: int) -> list[dict[str, Any]]:
    """Every drawn match not yet decided, over all rounds and stages."""
    return [
        match
        for round_ in api.get("tournaments:round-list", pk=pk)
        for match in round_["pairings"]
        if match["status"] == "ready"
    ]


def higher_seed(match: dict[str, Any]) -> int:
    one, two = match["players"]
    return one["player"] if one["seed"] < two["seed"] else two["player"]


def lower_seed(match: dict[str, Any]) -> int:
    """The upset: the player with the higher seed number wins."""
    one, two = match["players"]
    return one["player"] if one["seed"] > two["seed"] else two["player"]


def match_win(api: Api, match_id: int, winner: int) -> None:
    """Report single games for ``winner`` until the games match is over."""
    while True:
        detail = api.get("games:match-detail", pk=match_id)
        if detail["status"] != "in_progress":
            return
        api.post("games:result-list", {"winner": winner, "points": 1}, status=201, pk=match_id)


def play_all(api: Api, pk: int, choose: Chooser = higher_seed, limit: int = 200) -> int:
    """Play every match as it becomes ready until none is left; returns how many were played."""
    played = 0
    while (ready := open_matches(api, pk)) and played < limit:
        for match in ready:
            match_win(api, match["match_id"], choose(match))
            played += 1
    return played


def migrate_to(targets):
    """Migrate the test database to ``targets`` and return the apps of that state (the
    migration tests build rows with the models as they were)."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest() -> None:
    """Every migration applied again, for the tests that run after a migration test."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
