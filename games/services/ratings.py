"""FIBS ratings: every finished match (overall, variant "") and, per variant, every single game
is rated in the order the results came in, with a history row per player and result.

Only rated matches count (``Match.rated``: both players agreed to the match, or staff or a
rated tournament entered it; README, "Trust"), with their games. Order: matches by their end
(the last game's ``finished_at``, else ``updated_at``) then pk; games by ``finished_at`` then
pk, each variant on its own. Forfeits are not rated.

Two ways to get there, with identical results:

* ``ratings_update`` (after each finished match) rates only the results that have no history
  row yet, starting from each player's latest history row (rating, experience) and continuing
  the sequence numbers. That equals a full recompute only while the new results come after
  every rated one, so when an unrated result is older (in that order) than the newest rated
  result of its stream (overall or its variant), it falls back to ``ratings_recompute``. It
  writes nothing when everything is rated already.
* ``ratings_recompute`` (after a corrected result, and hourly from beat as a safety net)
  deletes the history and rates everything again from 1500, so a changed result is rated anew.

Runs follow each other: a recompute locks every player row in pk order; an update locks the
first of them (so it waits for a recompute and for another update) and then its own players.
An update writes only the players it rates, so a rating set by hand on a player with no rated
result stays until the next recompute resets it to 1500.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, Max, OuterRef, Q
from django.db.models.functions import Coalesce

from games.models import Game, Match, RatingHistory
from players.models import Player, VariantRating
from players.ratings import RatedMatch, Rating, rate


@dataclass(frozen=True)
class Outcome:
    """One result to rate: a whole match (``game`` None, overall stream) or one game of it."""

    match: Match
    game: Game | None
    winner: int  # player pk
    loser: int  # player pk
    length: int  # the match length; 1 for a single game
    at: Any  # when it ended (the history row's ``rated_at``)


Standing = dict[int, tuple[Rating, int]]  # player -> (rating, results rated)


def ratings_recompute() -> int:
    """Rate every result again in order; store ratings, per-variant ratings and the history.
    Returns the number of results rated."""
    with transaction.atomic():
        list(
            Player.objects.select_for_update(no_key=True)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        overall, history = _rate("", _match_outcomes())
        by_variant: dict[str, Standing] = {}
        for variant, outcomes in _game_outcomes().items():
            ratings, rows = _rate(variant, outcomes)
            history += rows
            by_variant[variant] = ratings
        RatingHistory.objects.all().delete()
        RatingHistory.objects.bulk_create(history)
        _store(overall, by_variant)
    return len(history) // 2


def ratings_update() -> int:
    """Rate the results not rated yet on top of the stored history, or everything again when
    one of them is older than a rated result. Returns the number of results rated."""
    with transaction.atomic():
        # The first player row is the runs' mutex: a recompute locks it first too.
        Player.objects.select_for_update(no_key=True).order_by("pk").values_list(
            "pk", flat=True
        ).first()
        matches = _match_outcomes(unrated=True)
        games = _game_outcomes(unrated=True)
        if not matches and not games:
            return 0
        streams = {"": matches, **games}
        newest = {variant: _newest_rated(variant) for variant in streams}
        if not all(_after(newest[v], outcomes, v) for v, outcomes in streams.items()):
            return ratings_recompute()
        players = {
            p for outcomes in streams.values() for o in outcomes for p in (o.winner, o.loser)
        }
        list(
            Player.objects.select_for_update(no_key=True)
            .filter(pk__in=players)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        history: list[RatingHistory] = []
        rated: dict[str, Standing] = {}
        for variant, outcomes in streams.items():
            if not outcomes:
                continue
            involved = {p for o in outcomes for p in (o.winner, o.loser)}
            last = newest[variant]
            sequence = 0 if last is None else last[0]
            rated[variant], rows = _rate(variant, outcomes, _stored(variant, involved), sequence)
            history += rows
        RatingHistory.objects.bulk_create(history)
        overall = rated.pop("", {})
        players_rated = list(Player.objects.filter(pk__in=overall))
        for player in players_rated:
            rating = overall[player.pk][0]
            player.rating, player.rating_games = rating.value, rating.experience
        Player.objects.bulk_update(players_rated, ["rating", "rating_games"])
        _store_variants(rated)
    return len(history) // 2


def _newest_rated(variant: str) -> tuple[int, tuple[Any, ...] | None] | None:
    """(sequence, ordering key) of the last rated result of a stream; None when none is. The
    key is read afresh, as a recompute would order by it (None when it cannot be)."""
    last = (
        RatingHistory.objects.filter(variant=variant)
        .order_by("-sequence")
        .values("sequence", "match_id", "game_id")
        .first()
    )
    if last is None:
        return None
    if variant == "":
        ended = (
            Match.objects.filter(pk=last["match_id"])
            .annotate(ended=Coalesce(Max("games__finished_at"), "updated_at"))
            .values_list("ended", flat=True)
            .first()
        )
        return last["sequence"], (ended, last["match_id"])
    finished_at = (
        Game.objects.filter(pk=last["game_id"]).values_list("finished_at", flat=True).first()
    )
    return last["sequence"], (None if finished_at is None else (finished_at, last["game_id"]))


def _after(
    newest: tuple[int, tuple[Any, ...] | None] | None, outcomes: Sequence[Outcome], variant: str
) -> bool:
    """Whether every unrated result of a stream sorts after its newest rated one."""
    if newest is None or not outcomes:
        return True
    key = newest[1]
    if key is None or key[0] is None:
        return False
    for outcome in outcomes:
        match, game = outcome.match, outcome.game
        ended = match.ended if variant == "" else game.finished_at  # type: ignore[union-attr]
        pk = match.pk if variant == "" else game.pk  # type: ignore[union-attr]
        if ended is None or (ended, pk) < key:
            return False
    return True


def _stored(variant: str, players: set[int]) -> Standing:
    """Each player's latest history row of a stream and how many rows it has."""
    counts = {
        row["player_id"]: (row["count"], row["last"])
        for row in RatingHistory.objects.filter(variant=variant, player_id__in=players)
        .values("player_id")
        .annotate(count=Count("pk"), last=Max("sequence"))
    }
    if not counts:
        return {}
    latest = Q()
    for player, (_, last) in counts.items():
        latest |= Q(player_id=player, sequence=last)
    return {
        row.player_id: (Rating(row.rating, row.experience), counts[row.player_id][0])
        for row in RatingHistory.objects.filter(variant=variant).filter(latest)
    }


def _match_outcomes(unrated: bool = False) -> list[Outcome]:
    matches = Match.objects.filter(
        status=Match.Status.FINISHED, winner__isnull=False, rated=True
    )
    if unrated:
        rows = RatingHistory.objects.filter(match=OuterRef("pk"), variant="")
        matches = matches.exclude(Exists(rows))
    matches = matches.annotate(ended=Coalesce(Max("games__finished_at"), "updated_at")).order_by(
        "ended", "pk"
    )
    return [
        Outcome(
            match=m,
            game=None,
            winner=m.winner_id,
            loser=_other(m.player_one_id, m.player_two_id, m.winner_id),
            length=m.target_score,
            at=m.ended,
        )
        for m in matches
    ]


def _game_outcomes(unrated: bool = False) -> dict[str, list[Outcome]]:
    games = Game.objects.filter(
        status=Game.Status.FINISHED, result_winner__isnull=False, match__rated=True
    )
    if unrated:
        games = games.exclude(Exists(RatingHistory.objects.filter(game=OuterRef("pk"))))
    games = games.select_related("match").order_by("finished_at", "pk")
    outcomes: dict[str, list[Outcome]] = {}
    for game in games:
        loser = _other(game.white_id, game.black_id, game.result_winner_id)
        outcomes.setdefault(game.variant, []).append(
            Outcome(
                match=game.match,
                game=game,
                winner=game.result_winner_id,
                loser=loser,
                length=1,
                at=game.finished_at or game.started_at,
            )
        )
    return outcomes


def _other(one: int, two: int, winner: int) -> int:
    return two if winner == one else one


def _rate(
    variant: str, outcomes: Iterable[Outcome], start: Standing | None = None, last: int = 0
) -> tuple[Standing, list[RatingHistory]]:
    """Rate `outcomes` in order from `start` (everybody else at 1500), numbering the history
    from `last` + 1. Returns the ratings and counts of `start`'s players and of those rated."""
    ratings: dict[int, Rating] = {p: rating for p, (rating, _) in (start or {}).items()}
    counts: dict[int, int] = {p: count for p, (_, count) in (start or {}).items()}
    history = []
    for sequence, outcome in enumerate(outcomes, start=last + 1):
        winner, loser = outcome.winner, outcome.loser
        before = {p: ratings.get(p, Rating()) for p in (winner, loser)}
        after = rate(before, RatedMatch(winner=winner, loser=loser, length=outcome.length))
        for player in (winner, loser):
            ratings[player] = after[player]
            counts[player] = counts.get(player, 0) + 1
            history.append(
                RatingHistory(
                    player_id=player,
                    match=outcome.match,
                    game=outcome.game,
                    variant=variant,
                    sequence=sequence,
                    rating=after[player].value,
                    change=after[player].value - before[player].value,
                    experience=after[player].experience,
                    rated_at=outcome.at,
                )
            )
    return {p: (r, counts[p]) for p, r in ratings.items()}, history


def _store(overall: Standing, by_variant: dict[str, Standing]) -> None:
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


def _store_variants(by_variant: dict[str, Standing]) -> None:
    """Update (or create) the VariantRating rows of the players just rated."""
    if not by_variant:
        return
    players = {p for ratings in by_variant.values() for p in ratings}
    existing = {
        (row.player_id, row.variant): row
        for row in VariantRating.objects.filter(player_id__in=players, variant__in=by_variant)
    }
    changed, created = [], []
    for variant, ratings in by_variant.items():
        for player, (rating, count) in ratings.items():
            row = existing.get((player, variant))
            if row is None:
                row = VariantRating(player_id=player, variant=variant)
                created.append(row)
            else:
                changed.append(row)
            row.rating, row.experience, row.games = rating.value, rating.experience, count
    VariantRating.objects.bulk_update(changed, ["rating", "experience", "games"])
    VariantRating.objects.bulk_create(created)


def ratings_enqueue(*, full: bool = True) -> None:
    """Once the current transaction commits, rate the new results (``full=False``: a finished
    match) or recompute everything (a corrected result). Runs as a Celery task; owed when it
    cannot be published (games.services.owed): the committed write still stands."""
    from games import tasks
    from games.services.owed import task_enqueue_on_commit

    task_enqueue_on_commit(tasks.ratings_recompute if full else tasks.ratings_update)
