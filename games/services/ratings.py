"""FIBS ratings: every finished match (overall, variant "") and, per variant, every single game
is rated in the order the results were rated, with a history row per player and result.

Only rated matches count (``Match.rated``: both players agreed to the match, or staff or a
rated tournament entered it; README, "Trust"), with their games. Forfeits are not rated.

Order (docs/decisions.md D63): each stream (overall, and each variant) is rated in the order of
its history's ``sequence``, which is the order in which results were rated; results rated
together (a match's games, or a recompute's unrated backlog) follow each other by their end (a
match's last game's ``finished_at``, else ``updated_at``; a game's ``finished_at``) then pk.
A late report so takes the next number instead of rewriting everybody's history, and the cost of
rating one match does not grow with the history.

Two ways to get there, with identical results:

* ``ratings_update(match_id=...)`` (after each finished match) rates that match and its games if
  they have no history row yet, from each player's latest history row (rating, experience),
  continuing the sequence numbers: a handful of index reads whatever the history holds. Without a
  match id it rates every result that has none yet (the owed-task and command path).
* ``ratings_recompute`` (after a corrected result, and hourly from beat as a safety net)
  deletes the history and rates everything again from 1500 in the same order (rated results by
  their old sequence, then the unrated ones), so a changed result is rated anew in its place.

Runs follow each other: a recompute locks every player row in pk order; an update locks the
first of them (so it waits for a recompute and for another update) and then its own players.
An update writes only the players it rates, so a rating set by hand on a player with no rated
result stays until the next recompute resets it to 1500.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Exists, Max, OuterRef
from django.db.models.functions import Coalesce

from games.models import Game, Match, RatingHistory
from games.services.owed import task_enqueue_on_commit
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
        rated = _rated_order()
        overall, history = _rate("", _in_order(_match_outcomes(), rated.get("", {})))
        by_variant: dict[str, Standing] = {}
        for variant, outcomes in _game_outcomes().items():
            ratings, rows = _rate(variant, _in_order(outcomes, rated.get(variant, {})))
            history += rows
            by_variant[variant] = ratings
        RatingHistory.objects.all().delete()
        RatingHistory.objects.bulk_create(history)
        _store(overall, by_variant)
    return len(history) // 2


def ratings_update(*, match_id: int | None = None) -> int:
    """Rate the results not rated yet (of the match ``match_id``, or all of them) on top of the
    stored history. Returns the number of results rated."""
    with transaction.atomic():
        # The first player row is the runs' mutex: a recompute locks it first too.
        Player.objects.select_for_update(no_key=True).order_by("pk").values_list(
            "pk", flat=True
        ).first()
        matches = _match_outcomes(unrated=True, match_id=match_id)
        games = _game_outcomes(unrated=True, match_id=match_id)
        if not matches and not games:
            return 0
        streams = {"": matches, **games}
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
            rated[variant], rows = _rate(
                variant, outcomes, _stored(variant, involved), _last_sequence(variant)
            )
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


def _last_sequence(variant: str) -> int:
    """The sequence number of a stream's last rated result (0: none), through the (variant,
    sequence) index."""
    last = (
        RatingHistory.objects.filter(variant=variant)
        .order_by("-sequence")
        .values_list("sequence", flat=True)
        .first()
    )
    return last or 0


def _rated_order() -> dict[str, dict[int, int]]:
    """Per stream, the sequence each rated result had: match pk (overall) or game pk -> number."""
    order: dict[str, dict[int, int]] = {}
    rows = RatingHistory.objects.values_list("variant", "match_id", "game_id", "sequence")
    for variant, match_id, game_id, sequence in rows.iterator(chunk_size=5000):
        order.setdefault(variant, {})[match_id if variant == "" else game_id] = sequence
    return order


def _in_order(outcomes: list[Outcome], rated: dict[int, int]) -> list[Outcome]:
    """The rated results in their old sequence, then the others in the order given (by end)."""

    def key(item: tuple[int, Outcome]) -> tuple[int, int]:
        index, outcome = item
        pk = outcome.match.pk if outcome.game is None else outcome.game.pk
        sequence = rated.get(pk)
        return (0, sequence) if sequence is not None else (1, index)

    return [outcome for _, outcome in sorted(enumerate(outcomes), key=key)]


def _stored(variant: str, players: set[int]) -> Standing:
    """Each player's latest history row of a stream and how many rows it has: one index read a
    player (the (player, variant, sequence) index, newest first)."""
    standing: Standing = {}
    for player in sorted(players):
        rows = RatingHistory.objects.filter(player_id=player, variant=variant)
        latest = rows.order_by("-sequence").values_list("rating", "experience").first()
        if latest is None:
            continue
        standing[player] = (Rating(*latest), _count(variant, player, rows))
    return standing


def _count(variant: str, player: int, rows: Any) -> int:
    """How many results of a stream a player has had rated: stored with the variant's rating
    (the overall stream keeps no count: nothing reads it)."""
    if variant == "":
        return 0
    games = (
        VariantRating.objects.filter(player_id=player, variant=variant)
        .values_list("games", flat=True)
        .first()
    )
    return games if games is not None else int(rows.count())


def _match_outcomes(unrated: bool = False, match_id: int | None = None) -> list[Outcome]:
    matches = Match.objects.filter(
        status=Match.Status.FINISHED, winner__isnull=False, rated=True
    )
    if match_id is not None:
        matches = matches.filter(pk=match_id)
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
        if m.winner_id is not None  # always (winner__isnull=False): it tells the type
    ]


def _game_outcomes(unrated: bool = False, match_id: int | None = None) -> dict[str, list[Outcome]]:
    games = Game.objects.filter(
        status=Game.Status.FINISHED, result_winner__isnull=False, match__rated=True
    )
    if match_id is not None:
        games = games.filter(match_id=match_id)
    if unrated:
        games = games.exclude(Exists(RatingHistory.objects.filter(game=OuterRef("pk"))))
    games = games.select_related("match").order_by("finished_at", "pk")
    outcomes: dict[str, list[Outcome]] = {}
    for game in games:
        if game.result_winner_id is None:  # never (result_winner__isnull=False): for the type
            continue
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


def ratings_enqueue(*, match_id: int | None = None) -> None:
    """Once the current transaction commits, rate the finished match ``match_id``, or recompute
    everything (no match: a corrected result). Runs as a Celery task, published by its name
    (games/tasks.py imports the services, never the other way round); owed when it cannot be
    published (games.services.owed): the committed write still stands."""
    if match_id is None:
        task_enqueue_on_commit("games.tasks.ratings_recompute")
    else:
        task_enqueue_on_commit("games.tasks.ratings_update", match_id)
