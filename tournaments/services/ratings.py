"""FIBS ratings: every finished match (and, per variant, every single game) is rated in the
order the results came in, with a history row per player and result.

The whole history is recomputed from scratch each time (pure ``tournaments.ratings.rate`` in a
loop), so a corrected result is simply rated anew; the player rows are locked so concurrent
runs follow each other. Forfeits are not rated.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Coalesce

from games.models import Game, Match
from tournaments.models import Player, RatingHistory, VariantRating
from tournaments.ratings import RatedMatch, Rating, rate

Outcome = tuple[Match, Game | None, int, int, int, object]  # match, game, winner, loser, length, at


def ratings_recompute() -> int:
    """Rate every result again in order; store ratings, per-variant ratings and the history.
    Returns the number of results rated."""
    with transaction.atomic():
        list(Player.objects.select_for_update().order_by("pk").values_list("pk", flat=True))
        overall, history = _rate("", _match_outcomes())
        by_variant: dict[str, dict[int, tuple[Rating, int]]] = {}
        for variant, outcomes in _game_outcomes().items():
            ratings, rows = _rate(variant, outcomes)
            history += rows
            by_variant[variant] = ratings
        RatingHistory.objects.all().delete()
        RatingHistory.objects.bulk_create(history)
        _store(overall, by_variant)
    return len(history) // 2


def _match_outcomes() -> list[Outcome]:
    matches = (
        Match.objects.filter(status=Match.Status.FINISHED, winner__isnull=False)
        .annotate(ended=Coalesce(Max("games__finished_at"), "updated_at"))
        .order_by("ended", "pk")
    )
    return [
        (
            m,
            None,
            m.winner_id,
            _other(m.player_one_id, m.player_two_id, m.winner_id),
            m.target_score,
            m.ended,
        )
        for m in matches
    ]


def _game_outcomes() -> dict[str, list[Outcome]]:
    games = (
        Game.objects.filter(status=Game.Status.FINISHED, result_winner__isnull=False)
        .select_related("match")
        .order_by("finished_at", "pk")
    )
    outcomes: dict[str, list[Outcome]] = {}
    for game in games:
        loser = _other(game.white_id, game.black_id, game.result_winner_id)
        outcomes.setdefault(game.variant, []).append(
            (game.match, game, game.result_winner_id, loser, 1, game.finished_at or game.started_at)
        )
    return outcomes


def _other(one: int, two: int, winner: int) -> int:
    return two if winner == one else one


def _rate(
    variant: str, outcomes: Iterable[Outcome]
) -> tuple[dict[int, tuple[Rating, int]], list[RatingHistory]]:
    ratings: dict[int, Rating] = {}
    counts: dict[int, int] = {}
    history = []
    for sequence, (match, game, winner, loser, length, at) in enumerate(outcomes, start=1):
        before = {p: ratings.get(p, Rating()) for p in (winner, loser)}
        after = rate(before, RatedMatch(winner=winner, loser=loser, length=length))
        for player in (winner, loser):
            ratings[player] = after[player]
            counts[player] = counts.get(player, 0) + 1
            history.append(
                RatingHistory(
                    player_id=player,
                    match=match,
                    game=game,
                    variant=variant,
                    sequence=sequence,
                    rating=after[player].value,
                    change=after[player].value - before[player].value,
                    experience=after[player].experience,
                    rated_at=at,
                )
            )
    return {p: (r, counts[p]) for p, r in ratings.items()}, history


def _store(
    overall: dict[int, tuple[Rating, int]], by_variant: dict[str, dict[int, tuple[Rating, int]]]
) -> None:
    players = list(Player.objects.all())
    for player in players:
        rating = overall.get(player.pk, (Rating(), 0))[0]
        player.rating, player.rating_games = rating.value, rating.experience
    Player.objects.bulk_update(players, ["rating", "rating_games"])
    VariantRating.objects.all().delete()
    VariantRating.objects.bulk_create(
        VariantRating(
            player_id=player,
            variant=variant,
            rating=rating.value,
            experience=rating.experience,
            games=count,
        )
        for variant, ratings in by_variant.items()
        for player, (rating, count) in ratings.items()
    )


def ratings_enqueue() -> None:
    """Recompute the ratings once the current transaction commits (a Celery task)."""
    from tournaments.tasks import ratings_recompute as ratings_recompute_task

    transaction.on_commit(ratings_recompute_task.delay)
