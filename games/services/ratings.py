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
* ``ratings_recompute`` (hourly from beat as a safety net, and by the command; never
  in a request when a broker is set, docs/decisions.md D77) rates everything again from 1500 in
  the same order (rated results by their old sequence, then the unrated ones), so a changed
  result is rated anew in its place. It works in chunks of ``RECOMPUTE_CHUNK`` results a
  transaction and writes only the rows that differ: run again it writes nothing, and a run
  stopped half-way leaves its chunks done for the next.
* ``ratings_recompute(from_match=...)`` (after a corrected result, D137) does the same from that
  match's point in the history onward, each player starting from their history row before it.

Runs follow each other through a mutex, the first player row: an update locks it (so it waits
for another update and for a recompute's chunk) and then its own players; a recompute locks it
for each chunk and for its last step, which rates on top what updates rated between its chunks
(they queue behind it) and stores the ratings that changed. An update writes only the players
it rates, so a rating set by hand on a player with no rated result stays until the next
recompute resets it to 1500.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, Max, Min, OuterRef, Q
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


RECOMPUTE_CHUNK = 500  # results rewritten a transaction by the recompute (docs/decisions.md D77)


def ratings_recompute(*, chunk: int = RECOMPUTE_CHUNK, from_match: int | None = None) -> int:
    """Rate every result again in order; store ratings, per-variant ratings and the history.
    Returns the number of results rated.

    In chunks of ``chunk`` results a transaction (docs/decisions.md D77): the order is read
    once (rated results by their sequence, then the unrated ones by their end); each chunk
    rewrites the history rows of its sequence numbers where they differ, holding only the
    runs' mutex (the first player row); a last transaction rates what was rated meanwhile on
    top (an update does not wait for the whole recompute) and stores the ratings that changed.
    Idempotent: run again, it only reads; stopped half-way, the chunks done stay done and a new
    run writes only the rest.

    ``from_match`` (a corrected match, docs/decisions.md D137): only from that match's results
    onward, in each stream it is rated in (and the overall one): each player starts as their
    history left them just before that point, the earlier rows stay as they are, and the later
    ones are rewritten as above; only the ratings of the players rated from there are stored.
    The same outcome as the whole recompute when the history before the point is right."""
    if from_match is None:
        streams, points, starts = _whole_history()
    else:
        streams, points, starts = _from_point(from_match)
    standings: dict[str, Standing] = {}
    for variant, outcomes in streams.items():
        standing: Standing = starts.get(variant, {})
        before = points[variant] - 1
        for start in range(0, len(outcomes), chunk):
            part = outcomes[start : start + chunk]
            standing, rows = _rate(variant, part, standing, before + start)
            with transaction.atomic():
                _runs_lock()
                first = before + start + 1
                _history_write(variant, part, rows, first, first + len(part) - 1)
        standings[variant] = standing
    with transaction.atomic():
        _runs_lock()
        done = sum(len(outcomes) for outcomes in streams.values())
        ends = {v: points[v] - 1 + len(o) for v, o in streams.items()}
        done += _rate_meanwhile(ends, standings, points)
        if from_match is None:
            overall = standings.pop("", {})
            _store(overall, standings)
        else:
            _store_touched(standings, {v: set(s) for v, s in starts.items()})
    return done


def _whole_history() -> tuple[dict[str, list[Outcome]], dict[str, int], dict[str, Standing]]:
    """Every stream's results in order, each from its first sequence number, from nobody."""
    rated = _rated_order()
    streams: dict[str, list[Outcome]] = {
        "": _in_order(_match_outcomes(), rated.get("", {})),
        **{
            variant: _in_order(outcomes, rated.get(variant, {}))
            for variant, outcomes in _game_outcomes().items()
        },
    }
    for variant in rated:  # a stream whose every result stopped counting: its rows go
        streams.setdefault(variant, [])
    return streams, dict.fromkeys(streams, 1), {}


def _from_point(
    match_id: int,
) -> tuple[dict[str, list[Outcome]], dict[str, int], dict[str, Standing]]:
    """The streams a match is rated in (and the overall one), each from the match's first
    sequence number there (past the stream's end when it has none): the results rated from
    that point by their sequence, then the unrated ones by their end, as the whole recompute
    orders them; and, per stream, the standing just before the point of every player rated
    from there (or whose rows from there go), from their history rows."""
    own = RatingHistory.objects.filter(match_id=match_id).order_by()
    variants = {"", *own.values_list("variant", flat=True)}
    variants |= set(
        Game.objects.filter(match_id=match_id).values_list("variant", flat=True).distinct()
    )
    points: dict[str, int] = {}
    for variant in variants:
        first = own.filter(variant=variant).aggregate(first=Min("sequence"))["first"]
        points[variant] = first if first is not None else _last_sequence(variant) + 1
    later: dict[str, dict[int, int]] = {}  # per stream, result -> its old sequence from the point
    players: dict[str, set[int]] = {variant: set() for variant in variants}
    matches = {match_id}
    rows = RatingHistory.objects.filter(
        _any(Q(variant=v, sequence__gte=p) for v, p in points.items())
    ).order_by()
    for variant, player, match, game, sequence in rows.values_list(
        "variant", "player_id", "match_id", "game_id", "sequence"
    ):
        later.setdefault(variant, {})[match if variant == "" else game] = sequence
        players[variant].add(player)
        matches.add(match)
    unrated = {"": _match_outcomes(unrated=True), **_game_outcomes(unrated=True)}
    among = {"": _match_outcomes(among=matches), **_game_outcomes(among=matches)}
    streams: dict[str, list[Outcome]] = {}
    for variant in variants:
        sequences = later.get(variant, {})
        rated = [o for o in among.get(variant, []) if _result(o) in sequences]
        fresh = unrated.get(variant, [])
        streams[variant] = _in_order(rated, sequences) + fresh
        players[variant] |= {p for o in streams[variant] for p in (o.winner, o.loser)}
    starts = {v: _standing_before(v, players[v], points[v]) for v in variants}
    for variant, standing in starts.items():  # those with no row before the point start anew
        for player in players[variant] - set(standing):
            standing[player] = (Rating(), 0)
    return streams, points, starts


def _any(conditions: Iterable[Q]) -> Q:
    result = Q(pk__in=[])
    for condition in conditions:
        result |= condition
    return result


def _result(outcome: Outcome) -> int:
    return outcome.match.pk if outcome.game is None else outcome.game.pk


def _standing_before(variant: str, players: Collection[int], point: int) -> Standing:
    """Each player's rating, experience and results rated in a stream just before the
    sequence number ``point``, from their history rows (absent: none before it)."""
    rows = RatingHistory.objects.filter(
        variant=variant, player_id__in=players, sequence__lt=point
    ).order_by()
    counts = dict(rows.values("player_id").annotate(n=Count("pk")).values_list("player_id", "n"))
    lasts = dict(
        rows.values("player_id").annotate(last=Max("sequence")).values_list("player_id", "last")
    )
    standing: Standing = {}
    for player, sequence, rating, experience in rows.filter(
        sequence__in=set(lasts.values())
    ).values_list("player_id", "sequence", "rating", "experience"):
        if lasts[player] == sequence:
            standing[player] = (Rating(rating, experience), counts[player])
    return standing


def _runs_lock() -> None:
    """The runs' mutex: the first player row, which an update locks first too."""
    Player.objects.select_for_update(no_key=True).order_by("pk").values_list(
        "pk", flat=True
    ).first()


def _result_key(variant: str) -> str:
    """The history's column that names a stream's result: the match (overall) or the game."""
    return "match_id" if variant == "" else "game_id"


ROW_FIELDS = (
    "player_id", "match_id", "game_id", "sequence", "rating", "change", "experience", "rated_at",
)  # fmt: skip


def _row_values(row: RatingHistory) -> tuple[Any, ...]:
    return tuple(getattr(row, field) for field in ROW_FIELDS)


def _history_write(
    variant: str, outcomes: list[Outcome], rows: list[RatingHistory], first: int, last: int
) -> None:
    """Make the stream's rows numbered ``first``..``last``, and those of ``outcomes``, the
    ``rows`` given: rows that differ are deleted, missing ones created, equal ones kept."""
    key = _result_key(variant)
    results = [o.match.pk if o.game is None else o.game.pk for o in outcomes]
    existing = (
        RatingHistory.objects.filter(variant=variant)
        .filter(Q(sequence__range=(first, last)) | Q(**{f"{key}__in": results}))
        .order_by()  # not the model's order, which joins the players to sort by name
    )
    kept: dict[tuple[Any, ...], list[int]] = {}
    for pk, *values in existing.values_list("pk", *ROW_FIELDS):
        kept.setdefault(tuple(values), []).append(pk)
    created = []
    for row in rows:
        same = kept.get(_row_values(row))
        if same:
            same.pop()
        else:
            created.append(row)
    stale = [pk for pks in kept.values() for pk in pks]
    if stale:
        RatingHistory.objects.filter(pk__in=stale).delete()
    RatingHistory.objects.bulk_create(created)


def _rate_meanwhile(
    lengths: dict[str, int], standings: dict[str, Standing], points: dict[str, int]
) -> int:
    """After the chunks, under the mutex: the rows numbered past a stream's new end were stale
    (a result that no longer counts) or written by an update meanwhile, from ratings that the
    recompute has changed since; they go, and those of their matches' results that count are
    rated again on top of ``standings``, in their order (a player the recompute did not rate
    from the stream's ``points`` starts as the history left them before it). Index reads only:
    the rows past each stream's end, and their matches. Returns how many results were rated."""
    tail = Q(pk__in=[])
    for variant, length in lengths.items():
        tail |= Q(variant=variant, sequence__gt=length)
    rows = RatingHistory.objects.filter(tail)
    meanwhile: dict[str, dict[int, int]] = {}
    matches: set[int] = set()
    for variant, match_id, game_id, sequence in rows.values_list(
        "variant", "match_id", "game_id", "sequence"
    ):
        meanwhile.setdefault(variant, {})[match_id if variant == "" else game_id] = sequence
        matches.add(match_id)
    if not meanwhile:
        return 0
    rows.delete()
    # Only the matches of those rows: a result that ended meanwhile and has no row yet is
    # rated by its own update, queued behind this transaction.
    pending = {
        "": _match_outcomes(unrated=True, among=matches),
        **_game_outcomes(unrated=True, among=matches),
    }
    history: list[RatingHistory] = []
    for variant, outcomes in pending.items():
        if not outcomes:
            continue
        ordered = _in_order(outcomes, meanwhile.get(variant, {}))
        standing = standings.get(variant, {})
        missing = {p for o in ordered for p in (o.winner, o.loser)} - set(standing)
        if missing and points.get(variant, 1) > 1:
            standing = {**_standing_before(variant, missing, points[variant]), **standing}
        standings[variant], rated = _rate(variant, ordered, standing, lengths.get(variant, 0))
        history += rated
    RatingHistory.objects.bulk_create(history)
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
    rows = RatingHistory.objects.order_by().values_list(
        "variant", "match_id", "game_id", "sequence"
    )
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


def _match_outcomes(
    unrated: bool = False, match_id: int | None = None, among: Collection[int] | None = None
) -> list[Outcome]:
    matches = Match.objects.filter(status=Match.Status.FINISHED, winner__isnull=False, rated=True)
    if match_id is not None:
        matches = matches.filter(pk=match_id)
    if among is not None:
        matches = matches.filter(pk__in=among)
    if unrated:
        rows = RatingHistory.objects.filter(match=OuterRef("pk"), variant="")
        matches = matches.exclude(Exists(rows))
        if not matches.exists():  # the usual case: not worth the ends' aggregate below
            return []
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


def _game_outcomes(
    unrated: bool = False, match_id: int | None = None, among: Collection[int] | None = None
) -> dict[str, list[Outcome]]:
    games = Game.objects.filter(
        status=Game.Status.FINISHED, result_winner__isnull=False, match__rated=True
    )
    if match_id is not None:
        games = games.filter(match_id=match_id)
    if among is not None:
        games = games.filter(match_id__in=among)
    if unrated:
        games = games.exclude(Exists(RatingHistory.objects.filter(game=OuterRef("pk"))))
        if not games.exists():
            return {}
    games = games.select_related("match").order_by("finished_at", "pk")
    # What an outcome reads (and the match's pk): not the positions nor the options, JSON each.
    games = games.only(
        "variant", "white_id", "black_id", "result_winner_id", "finished_at", "started_at",
        "match__id",
    )  # fmt: skip
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
    """Store every player's ratings as the recompute left them (1500 and no results for a
    player it did not rate), writing only the rows that differ."""
    players = []
    for pk, value, experience in Player.objects.order_by("pk").values_list(
        "pk", "rating", "rating_games"
    ):
        rating = overall.get(pk, (Rating(), 0))[0]
        if (value, experience) != (rating.value, rating.experience):
            players.append(Player(pk=pk, rating=rating.value, rating_games=rating.experience))
    Player.objects.bulk_update(players, ["rating", "rating_games"], batch_size=1000)
    wanted = {
        (player, variant): (rating.value, rating.experience, count)
        for variant, ratings in by_variant.items()
        for player, (rating, count) in ratings.items()
    }
    stale, changed = [], []
    for row in VariantRating.objects.order_by("pk"):
        values = wanted.pop((row.player_id, row.variant), None)
        if values is None:  # no result of the variant counts any more, or a second row
            stale.append(row.pk)
        elif (row.rating, row.experience, row.games) != values:
            row.rating, row.experience, row.games = values
            changed.append(row)
    VariantRating.objects.filter(pk__in=stale).delete()
    VariantRating.objects.bulk_update(changed, ["rating", "experience", "games"], batch_size=1000)
    VariantRating.objects.bulk_create(
        VariantRating(
            player_id=player, variant=variant, rating=rating, experience=experience, games=games
        )
        for (player, variant), (rating, experience, games) in wanted.items()
    )


def _store_touched(standings: dict[str, Standing], touched: dict[str, set[int]]) -> None:
    """Store the ratings of the players a recompute from a point rated (``standings``) or whose
    rows from there went (``touched``): a player left with no result of a stream has 1500 and
    no results (overall) or no rating of the variant, as after the whole recompute; so has
    every player with no rated result at all (a rating set by hand), through the history's
    (player, variant, sequence) index."""
    rows = RatingHistory.objects.filter(player=OuterRef("pk"), variant="")
    Player.objects.exclude(Exists(rows)).exclude(rating=Rating().value, rating_games=0).update(
        rating=Rating().value, rating_games=0
    )
    rows = RatingHistory.objects.filter(player=OuterRef("player"), variant=OuterRef("variant"))
    VariantRating.objects.exclude(Exists(rows)).delete()
    overall = standings.get("", {})
    players = []
    for pk, value, experience in (
        Player.objects.filter(pk__in=touched.get("", set()) | set(overall))
        .order_by("pk")
        .values_list("pk", "rating", "rating_games")
    ):
        rating = overall.get(pk, (Rating(), 0))[0]
        if (value, experience) != (rating.value, rating.experience):
            players.append(Player(pk=pk, rating=rating.value, rating_games=rating.experience))
    Player.objects.bulk_update(players, ["rating", "rating_games"], batch_size=1000)
    kept: dict[str, Standing] = {}
    for variant, standing in standings.items():
        if variant == "":
            continue
        kept[variant] = {p: values for p, values in standing.items() if values[1] > 0}
        gone = (touched.get(variant, set()) | set(standing)) - set(kept[variant])
        VariantRating.objects.filter(variant=variant, player_id__in=gone).delete()
    _store_variants(kept)


def _store_variants(by_variant: dict[str, Standing]) -> None:
    """Update (or create) the VariantRating rows of the players just rated: those that differ."""
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
            values = (rating.value, rating.experience, count)
            if row is None:
                row = VariantRating(player_id=player, variant=variant)
                created.append(row)
            elif (row.rating, row.experience, row.games) != values:
                changed.append(row)
            row.rating, row.experience, row.games = values
    VariantRating.objects.bulk_update(changed, ["rating", "experience", "games"])
    VariantRating.objects.bulk_create(created)


def ratings_enqueue(*, match_id: int | None = None, corrected: bool = False) -> None:
    """Once the current transaction commits, rate the finished match ``match_id``, or recompute
    from the point of that match (``corrected``: its result changed, docs/decisions.md D137),
    or everything (no match). Runs as a Celery task, published by its name
    (games/tasks.py imports the services, never the other way round); owed when it cannot be
    published (games.services.owed): the committed write still stands."""
    if match_id is None:
        task_enqueue_on_commit("games.tasks.ratings_recompute")
    elif corrected:
        hints = {"from_match": match_id}  # owed, it is the whole recompute
        task_enqueue_on_commit("games.tasks.ratings_recompute", hints=hints)
    else:
        task_enqueue_on_commit("games.tasks.ratings_update", match_id)
