"""Results in a tournament: record a finished games Match on its slot and move the tournament
on; an organiser's correction (re-propagated, or refused when later matches have started);
deadlines and forfeits for no-shows."""

from __future__ import annotations

import datetime
from contextlib import nullcontext

from auditlog.context import set_actor
from django.db import transaction
from django.utils import timezone

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from games import selectors as games_selectors
from games import services as games_services
from games.engine import InvalidScoreError, Options, final_score_winner
from games.models import Game, Match, ResultReport
from games.selectors import User
from tournaments.draw import brackets
from tournaments.models import Entry, Round, Stage, Tournament, TournamentMatch
from tournaments.services import formats
from tournaments.services.common import RowSaves, audit, has_started, organiser_action
from tournaments.services.standings import bracket_states, standings_enqueue

MatchStatus = TournamentMatch.Status


def tournament_match_record(*, match: Match) -> TournamentMatch | None:
    """``match`` has ended: store its outcome on its tournament slot, fill the next matches and
    recompute the standings on commit. None when the match belongs to no tournament.

    The audit log records the result under the user who made it count: whoever answered the
    report that ended the match (the organiser who entered, confirmed or overrode it, or the
    opponent who confirmed it), with that report's id. A forfeit is recorded under the actor of
    the caller's audit context (the organiser who declared it, the withdrawing player); a match
    played out online under none.

    The row is read once, locked, and saved without auditlog's read of it (``RowSaves``,
    docs/decisions.md D141)."""
    found = (
        TournamentMatch.objects.filter(match=match)
        .order_by()  # one row at most: no join on the tournament to sort
        .values_list("pk", "tournament_id")
        .first()
    )
    if found is None:
        return None
    row_id, tournament_id = found
    report = _deciding_report(match)
    actor = report.responded_by if report is not None else None
    with transaction.atomic(), set_actor(actor) if actor else nullcontext():
        # Locked, with its organiser: the games matches a result opens are theirs.
        tournament = (
            Tournament.objects.select_for_update(no_key=True, of=("self",))
            .select_related("created_by")
            .get(pk=tournament_id)
        )
        row = (
            TournamentMatch.objects.select_for_update(no_key=True, of=("self",))
            .select_related("entry_one", "entry_two")
            .get(pk=row_id)
        )
        row.tournament = tournament  # its name is in the audit trail's text of the row
        first = row.status != MatchStatus.DONE
        saves = RowSaves()
        saves.read(row)
        _outcome_store(row, match)
        saves.save(row)
        saves.write()
        audit(
            tournament,
            actor,
            "forfeit" if row.is_forfeit else "result",
            **{row.key: (None, [row.winner_id, row.score_one, row.score_two])},
            **({"report": (None, report.pk)} if report is not None else {}),
        )
        changed = formats._progress(tournament, row, first=first)
        if changed:
            standings_enqueue(tournament, stage=row.stage, entries=changed)
        else:
            standings_enqueue(tournament)
    return row


def _deciding_report(match: Match) -> ResultReport | None:
    """The counted report that ended an over-the-board match (its last one), if any."""
    if match.status != Match.Status.FINISHED:
        return None
    counted = (ResultReport.Status.CONFIRMED, ResultReport.Status.OVERRIDDEN)
    return (
        match.reports.filter(status__in=counted)
        .select_related("responded_by")
        .order_by("-responded_at", "-id")
        .first()
    )


def _outcome_store(row: TournamentMatch, match: Match) -> None:
    one, two = row.entry_one, row.entry_two
    assert one is not None and two is not None
    row.winner = one if match.winner_id == one.player_id else two
    row.score_one, row.score_two = match.score_one, match.score_two
    row.games_one, row.games_two = _games_won(row, match)
    row.is_forfeit = match.status == Match.Status.FORFEITED
    row.status = MatchStatus.DONE
    row.finished_at = timezone.now()


def _games_won(row: TournamentMatch, match: Match | None) -> tuple[int | None, int | None]:
    """The games each player of ``row`` won, when the games stored give its score; None for
    both when they do not (docs/decisions.md D27): a whole-match score reported over the board
    or entered by the organiser, or a correction, stores no games, so how many each won is
    unknown, not 0."""
    one, two = row.entry_one, row.entry_two
    assert one is not None and two is not None
    scores = (row.score_one, row.score_two)
    if match is None or games_selectors.match_state(match).scores != scores:
        return None, None
    won = match.games.filter(status=Game.Status.FINISHED)
    return (
        won.filter(result_winner_id=one.player_id).count(),
        won.filter(result_winner_id=two.player_id).count(),
    )


def result_correct(
    *,
    tournament: Tournament,
    tournament_match: TournamentMatch,
    user: User,
    winner: Entry | None = None,
    score_one: int | None = None,
    score_two: int | None = None,
) -> TournamentMatch:
    """The organiser changes the winner (and score) of a finished match. Without a score the
    old one stays, the other way round when the winner changes; a forfeit needs the score the
    match ended with, as it becomes a match played. The score must be one a match of that
    length could end with, won by ``winner`` (docs/decisions.md D25); without ``winner`` both
    scores are needed and the winner follows from them (D106). In a bracket the
    new winner and loser are carried forward; it is refused when a later match they would
    leave has already started (correct that one first). An organiser who plays in the match
    never corrects it: a co-organiser or staff does (docs/decisions.md D39)."""
    with organiser_action(tournament, user) as tournament:
        row = TournamentMatch.objects.select_for_update(no_key=True).get(pk=tournament_match.pk)
        if row.status != MatchStatus.DONE or row.entry_two_id is None:
            raise ConflictError(f"match {row.key} has no result to correct ({row.status})")
        _check_not_a_party(row, user)
        if winner is None:
            if score_one is None or score_two is None:
                raise InvalidRequestError(f"give both final scores of {row.key}")
            winner = _score_winner(tournament, row, (score_one, score_two))
        if winner.pk not in (row.entry_one_id, row.entry_two_id):
            raise InvalidRequestError(f"{_name(winner)} does not play in match {row.key}")
        if row.is_forfeit and score_one is None and score_two is None:
            raise InvalidRequestError(
                f"match {row.key} was decided by forfeit at {row.score_one}-{row.score_two}: "
                "give the final score it ended with (score_one and score_two)"
            )
        if winner.pk != row.winner_id and score_one is None and score_two is None:
            score_one, score_two = row.score_two, row.score_one  # the other way round
        score = (
            row.score_one if score_one is None else score_one,
            row.score_two if score_two is None else score_two,
        )
        _check_final_score(tournament, row, winner, score)
        _check_correctable(tournament, row, winner)
        before = (row.winner_id, row.score_one, row.score_two)
        row.winner = winner
        row.score_one, row.score_two = score
        row.games_one, row.games_two = _games_won(row, row.match)
        row.is_forfeit = False
        row.save()
        if row.match is not None:
            games_services.match_correct(
                match=row.match,
                user=user,
                winner=winner.player,
                score_one=row.score_one,
                score_two=row.score_two,
            )
        formats._progress(tournament, row)
        audit(
            tournament,
            user,
            "correct_result",
            match=(row.key, row.key),
            result=(list(before), [row.winner_id, row.score_one, row.score_two]),
        )
        standings_enqueue(tournament)
    return row


def _check_not_a_party(row: TournamentMatch, user: User) -> None:
    """An organiser who plays in the match never corrects it (docs/decisions.md D39)."""
    you = games_selectors.player_for(user)
    if you is not None and _plays(you.pk, row):
        raise NotAllowedError(games_selectors.PARTY_DECIDES)


def _name(entry: Entry) -> str:
    return entry.player.display_name


def _score_winner(tournament: Tournament, row: TournamentMatch, score: tuple[int, int]) -> Entry:
    """The entry a corrected final score makes the winner; refused, naming the score, when no
    match of that length ends so. A corrected score is checked like a final score reported over
    the board (D25), except against the games counted: a correction overrides them."""
    length = row.match.target_score if row.match else row.match_length or tournament.match_length
    try:
        rules = Options.from_json(row.match.options if row.match else tournament.options)
        side = final_score_winner(score, length, options=rules)
    except InvalidScoreError as error:
        text = f"{score[0]}-{score[1]}"
        raise InvalidRequestError(f"cannot correct {row.key} to {text}: {error}") from error
    champion = (row.entry_one, row.entry_two)[side]
    assert champion is not None  # a finished match has both players
    return champion


def _check_final_score(
    tournament: Tournament, row: TournamentMatch, winner: Entry, score: tuple[int, int]
) -> None:
    """The corrected score must make ``winner`` the winner; the refusal names the players."""
    champion = _score_winner(tournament, row, score)
    if champion.pk != winner.pk:
        raise InvalidRequestError(
            f"cannot correct {row.key}: the score {score[0]}-{score[1]} makes "
            f"{_name(champion)} the winner, not {_name(winner)}"
        )


def _check_correctable(tournament: Tournament, row: TournamentMatch, winner: Entry) -> None:
    """Refuse a correction that would change the players of a later match (one downstream of
    ``row`` in its bracket) that has already started or finished; only those are named (D25)."""
    if row.stage == Stage.MAIN and Stage.KNOCKOUT in tournament.brackets:
        raise ConflictError("the knock-out stage is already drawn from these group results")
    if not (tournament.is_elimination or row.stage == Stage.KNOCKOUT):
        return  # a league result: only the standings change (later Swiss pairings stand)
    states, bracket, rows = bracket_states(
        tournament, row.stage, {row.key: winner.pk}, strict=False
    )
    stored = {other.key: other for other in rows}
    blocked = [
        key
        for key in brackets.downstream(bracket, row.key)
        if states[key].players != (stored[key].entry_one_id, stored[key].entry_two_id)
        and (stored[key].status == MatchStatus.DONE or has_started(stored[key].match))
    ]
    if blocked:
        raise ConflictError(
            f"cannot correct {row.key}: later matches {', '.join(blocked)} have already "
            "started with the present result; correct those first"
        )


def round_deadline_set(
    *,
    tournament: Tournament,
    user: User,
    number: int,
    deadline: datetime.datetime | None,
    stage: str = Stage.MAIN,
) -> Round:
    """Set the time after which the round's unstarted matches may be forfeited."""
    with organiser_action(tournament, user) as tournament:
        round_ = formats._check_round(tournament, stage, number)
        before = round_.deadline
        round_.deadline = deadline
        round_.save()
        audit(
            tournament, user, "round_deadline", **{f"round {number} deadline": (before, deadline)}
        )
    return round_


def round_forfeit_no_shows(
    *,
    tournament: Tournament,
    user: User,
    number: int,
    absent: list[Entry] | None = None,
    stage: str = Stage.MAIN,
) -> list[TournamentMatch]:
    """After the round's deadline, every match of the round not yet started is forfeited by
    the absent player: those listed in ``absent``, else the one who has not checked in. A match
    where both or neither are absent is left to the organiser, and so is a match ``user`` plays
    in: a co-organiser or staff decides it (docs/decisions.md D39)."""
    with organiser_action(tournament, user) as tournament:
        round_ = formats._check_round(tournament, stage, number)
        if round_.deadline is None:
            raise ConflictError(f"round {number} has no deadline; set one first")
        if timezone.now() < round_.deadline:
            raise ConflictError(
                f"the deadline of round {number} ({round_.deadline}) has not passed"
            )
        absent_ids = None if absent is None else {entry.pk for entry in absent}
        rows = tournament.matches.filter(stage=stage, round=number, status=MatchStatus.READY)
        forfeited = []
        you = games_selectors.player_for(user)
        for row in rows.select_related("entry_one__player", "entry_two__player", "match"):
            assert row.match is not None  # a ready match has its Match
            if has_started(row.match) or (you is not None and _plays(you.pk, row)):
                continue  # played already, or the asking organiser's own match (D39)
            missing = [e for e in row.entries if e and _is_absent(e, absent_ids)]
            if len(missing) != 1:
                continue
            games_services.match_forfeit(match=row.match, user=user, loser=missing[0].player)
            forfeited.append(row.key)
        audit(tournament, user, "forfeit_no_shows", **{f"round {number}": (None, forfeited)})
    return list(tournament.matches.filter(stage=stage, key__in=forfeited))


def _plays(player_id: int, row: TournamentMatch) -> bool:
    return any(entry is not None and entry.player_id == player_id for entry in row.entries)


def _is_absent(entry: Entry, absent_ids: set[int] | None) -> bool:
    return entry.pk in absent_ids if absent_ids is not None else not entry.checked_in
