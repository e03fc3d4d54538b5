"""A bracket's result updates its standings table in part (docs/decisions.md D113): only the
statistics of the players within two opponents of the result's players are recomputed, the
places from the whole bracket. After every result of whole events the stored tables must be
exactly what a full recompute gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Match
from tests.tournaments.factories import PlayerFactory
from tournaments import services
from tournaments.draw.standings import MatchResult, compute_standings, standings_update
from tournaments.models import Standing, Tournament, TournamentMatch
from tournaments.services import standings as standings_service

COLUMNS = standings_service.COLUMNS


def stored_tables(tournament: Tournament) -> dict[str, dict[int, tuple[Any, ...]]]:
    tables: dict[str, dict[int, tuple[Any, ...]]] = {}
    for section, entry, *values in Standing.objects.filter(tournament=tournament).values_list(
        "section", "entry_id", *COLUMNS
    ):
        tables.setdefault(section, {})[entry] = tuple(values)
    return tables


def recomputed_tables(tournament: Tournament) -> dict[str, dict[int, tuple[Any, ...]]]:
    return {
        section: {row.player: standings_service._values(row) for row in rows}
        for section, rows in standings_service.standings_tables(tournament).items()
    }


def started(organiser: Any, size: int, **settings: Any) -> Tournament:
    players = [PlayerFactory(rating=1500.0 + i) for i in range(size)]
    tournament = services.tournament_create(
        user=organiser, name=f"Update {size}", match_length=3, **settings
    )
    services.registration_open(tournament=tournament, user=organiser)
    services.entries_register_many(tournament=tournament, user=organiser, players=players)
    services.tournament_start(tournament=tournament, user=organiser)
    return Tournament.objects.get(pk=tournament.pk)


def play(row: TournamentMatch, rng: random.Random) -> Match:
    """The games match of ``row`` finished: a random winner, by 3-0, 3-1 or 3-2."""
    assert row.match is not None and row.entry_one is not None and row.entry_two is not None
    first = rng.random() < 0.5
    winner = (row.entry_one if first else row.entry_two).player_id
    other = rng.choice((0, 1, 2))
    Match.objects.filter(pk=row.match.pk).update(
        status=Match.Status.FINISHED,
        winner=winner,
        score_one=3 if first else other,
        score_two=other if first else 3,
    )
    row.match.refresh_from_db()
    return row.match


def run_event(
    tournament: Tournament,
    organiser: Any,
    capture: Any,
    monkeypatch: Any,
    *,
    seed: int,
    withdraw_after: int | None = None,
) -> tuple[int, int]:
    """Every result of ``tournament`` in turn (and Swiss rounds paired), the stored tables
    checked against a full recompute after each; returns (results, partial updates)."""
    rng = random.Random(seed)
    partial = []
    update = standings_service._bracket_update

    def counted(*args: Any, **kwargs: Any) -> Any:
        stored = update(*args, **kwargs)
        partial.append(stored is not None)
        return stored

    monkeypatch.setattr(standings_service, "_bracket_update", counted)
    results = 0
    while True:
        tournament.refresh_from_db()
        ready = list(
            tournament.matches.filter(status=TournamentMatch.Status.READY)
            .select_related("entry_one", "entry_two", "match")
            .order_by("id")
        )
        if not ready:
            if tournament.format != Tournament.Format.SWISS:
                break
            if tournament.status == Tournament.Status.FINISHED:
                break
            with capture(execute=True):
                services.swiss_round_pair(tournament=tournament, user=organiser)
            assert stored_tables(tournament) == recomputed_tables(tournament)
            continue
        row = rng.choice(ready)
        with capture(execute=True):
            services.tournament_match_record(match=play(row, rng))
        results += 1
        assert stored_tables(tournament) == recomputed_tables(tournament), row.key
        if results == withdraw_after:
            entry = tournament.entries.filter(status="active").order_by("?").first()
            assert entry is not None
            with capture(execute=True):
                services.entry_withdraw(entry=entry, user=organiser)
            assert stored_tables(tournament) == recomputed_tables(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return results, sum(partial)


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_double_elimination_stores_after_every_result_what_a_recompute_gives(
    organiser, django_capture_on_commit_callbacks, monkeypatch, seed
):
    tournament = started(organiser, 16, format="double_elimination")
    results, partial = run_event(
        tournament, organiser, django_capture_on_commit_callbacks, monkeypatch, seed=seed
    )
    assert results >= 30
    assert partial == results - 1  # the first stores the table (none at the start), then in part


@pytest.mark.django_db
def test_a_bracket_with_byes_and_a_withdrawal_stays_exact(
    organiser, django_capture_on_commit_callbacks, monkeypatch
):
    tournament = started(organiser, 13, format="double_elimination")
    results, partial = run_event(
        tournament,
        organiser,
        django_capture_on_commit_callbacks,
        monkeypatch,
        seed=7,
        withdraw_after=6,
    )
    assert partial >= results - 3


@pytest.mark.django_db
def test_a_single_elimination_with_a_third_place_match_stays_exact(
    organiser, django_capture_on_commit_callbacks, monkeypatch
):
    tournament = started(organiser, 12, format="single_elimination", third_place=True)
    results, partial = run_event(
        tournament, organiser, django_capture_on_commit_callbacks, monkeypatch, seed=4
    )
    # In part, but when a place's players would be listed out of their ids' order: the rows are
    # then written again in order (``_standings_store``), as before.
    assert 0 < partial < results


@pytest.mark.django_db
def test_a_swiss_stores_after_every_result_what_a_recompute_gives(
    organiser, django_capture_on_commit_callbacks, monkeypatch
):
    tournament = started(organiser, 16, format="swiss", swiss_rounds=4)
    results, partial = run_event(
        tournament,
        organiser,
        django_capture_on_commit_callbacks,
        monkeypatch,
        seed=5,
        withdraw_after=20,
    )
    assert results >= 30
    assert partial == 0  # a league's ranks move with everyone's values: recomputed in full


@pytest.mark.parametrize(
    "order",
    [
        ("match_points", "buchholz", "median_buchholz", "sonneborn_berger", "head_to_head"),
        ("match_points", "head_to_head", "buchholz", "point_diff"),
        ("match_points", "sonneborn_berger", "points_for"),
        ("buchholz", "head_to_head", "match_points"),
    ],
)
@pytest.mark.parametrize("seed", range(6))
def test_updating_the_players_near_a_result_gives_a_full_computes_rows(order, seed):
    """Random results (forfeits and byes among them) among 14 players, one at a time: the rows
    of the players within two opponents of each new result, recomputed with the others read
    from the rows before, are those ``compute_standings`` gives everyone."""
    rng = random.Random(seed)
    players = list(range(1, 15))
    results: list[MatchResult] = []
    rows = {row.player: row for row in compute_standings(players, results, order)}
    for number in range(40):
        if rng.random() < 0.1:
            new = MatchResult(number, rng.choice(players), None, None, bye_points=0.5)
            changed = {new.player1}
        else:
            one, two = rng.sample(players, 2)
            winner = rng.choice((one, two))
            games = (rng.randint(0, 3), rng.randint(0, 3))
            new = MatchResult(number, one, two, winner, *games, forfeit=rng.random() < 0.1)
            changed = {one, two}
        results.append(new)
        met: dict[int, set[int]] = {}
        for result in results:
            if result.player2 is not None:
                met.setdefault(result.player1, set()).add(result.player2)
                met.setdefault(result.player2, set()).add(result.player1)
        near = set(changed)
        for _ in range(2):
            near |= {other for player in near for other in met.get(player, ())}
        theirs = [r for r in results if r.player1 in near or r.player2 in near]
        rows = {**rows, **standings_update(rows, near, theirs, order)}
        full = {row.player: row for row in compute_standings(players, results, order)}
        assert {p: standings_service._values(r)[2:] for p, r in rows.items()} == {
            p: standings_service._values(r)[2:] for p, r in full.items()
        }


def test_an_order_with_games_won_is_refused():
    with pytest.raises(ValueError, match="games_won"):
        standings_update({}, [1], [], ("match_points", "games_won"))
