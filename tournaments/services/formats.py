"""Drawing and advancing each format: load rows → build the pure dataclasses → call the pure
function (tournaments.brackets, round_robin, swiss) → save what it returns."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.utils import timezone

from common.errors import ConflictError, InvalidRequestError
from games.selectors import User
from tournaments.draw import brackets, round_robin, swiss
from tournaments.models import Entry, Round, Stage, Tournament, TournamentMatch
from tournaments.services.common import (
    SETTLED,
    audit,
    audit_bulk,
    check_status,
    has_started,
    match_open,
    matches_open_many,
    opening_variant,
    organiser_action,
)
from tournaments.services.standings import section_standings, standings_enqueue

Format = Tournament.Format
MatchStatus = TournamentMatch.Status
Slot = brackets.SlotStatus


def draw_start(tournament: Tournament, user: User) -> None:
    """Draw the first matches of a tournament that ``user`` has just started."""
    entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("seed"))
    ids = [entry.pk for entry in entries]
    if tournament.format == Format.ROUND_ROBIN:
        round_robin_create(tournament, ids, user)
    elif tournament.format == Format.SWISS:
        tournament.swiss_rounds = tournament.swiss_rounds or swiss.default_rounds(len(ids))
        swiss_pair(tournament, user)
    else:
        bracket_create(tournament, Stage.MAIN, _main_bracket(tournament, len(ids)), ids)
    tournament.current_round = max(tournament.current_round, 1)
    tournament.save()


def _main_bracket(tournament: Tournament, size: int) -> brackets.Bracket:
    if tournament.format == Format.SINGLE_ELIMINATION:
        return brackets.single_elimination(size, third_place=tournament.third_place)
    if tournament.format == Format.DOUBLE_ELIMINATION:
        return brackets.double_elimination(size, reset=tournament.grand_final_reset)
    # The field decides how many entry rounds the draw has: fewer than asked in a small field
    # (docs/decisions.md D22).
    return brackets.consolation(
        size,
        entry_rounds=brackets.consolation_rounds_for(size, tournament.consolation_rounds),
        match_length=tournament.consolation_match_length,
    )


# --- elimination brackets ---------------------------------------------------------------------


def bracket_create(
    tournament: Tournament, stage: str, bracket: brackets.Bracket, entry_ids: list[int]
) -> None:
    """Store ``bracket`` as rows of ``stage``; ``entry_ids`` are in seed order."""
    TournamentMatch.objects.bulk_create(
        TournamentMatch(
            tournament=tournament,
            stage=stage,
            key=match.key,
            section=match.section,
            round=match.round,
            index=match.index,
            sources=[brackets.source_text(source) for source in match.sources],
            match_length=match.match_length,
        )
        for match in bracket.matches
    )
    seeds = {str(number): entry for number, entry in enumerate(entry_ids, start=1)}
    tournament.brackets = {**tournament.brackets, stage: {"format": bracket.format, "seeds": seeds}}
    tournament.save()
    for number in sorted({match.round for match in bracket.matches}):
        _round_create(tournament, stage, number)
    bracket_sync(tournament, stage)


def bracket_load(
    tournament: Tournament, stage: str
) -> tuple[brackets.Bracket, dict[int, int], list[TournamentMatch]]:
    """The stored bracket of ``stage`` as the pure dataclasses, its seeding and its rows."""
    rows = list(
        tournament.matches.filter(stage=stage)
        .select_related("entry_one", "entry_two", "match")
        .order_by("id")
    )
    stored = tournament.brackets[stage]
    seeding = {int(number): entry for number, entry in stored["seeds"].items()}
    matches = tuple(
        brackets.BracketMatch(
            key=row.key,
            section=brackets.Section(row.section),
            round=row.round,
            index=row.index,
            sources=(brackets.parse_source(row.sources[0]), brackets.parse_source(row.sources[1])),
            match_length=row.match_length,
        )
        for row in rows
    )
    return brackets.Bracket(stored["format"], len(seeding), matches), seeding, rows


def bracket_results(rows: list[TournamentMatch]) -> dict[str, int]:
    return {
        row.key: row.winner_id
        for row in rows
        if row.status == MatchStatus.DONE and row.winner_id is not None
    }


def bracket_states(
    tournament: Tournament,
    stage: str,
    override: dict[str, int] | None = None,
    *,
    strict: bool = True,
) -> tuple[dict[str, brackets.SlotState], brackets.Bracket, list[TournamentMatch]]:
    """Every slot of ``stage`` resolved from the stored results, with ``override`` in place of
    some; ``strict`` False leaves out a stored result the override makes impossible."""
    bracket, seeding, rows = bracket_load(tournament, stage)
    results = {**bracket_results(rows), **(override or {})}
    return brackets.resolve(bracket, seeding, results, strict=strict), bracket, rows


def bracket_sync(tournament: Tournament, stage: str) -> None:
    """Fill every slot from the results so far: open the matches whose players are now known,
    record byes, forfeit withdrawn players, and replace unstarted matches whose players changed
    (after a correction). Repeats until nothing changes, then finishes the stage if it is over."""
    entries = {entry.pk: entry for entry in tournament.entries.all()}
    while True:
        states, _, rows = bracket_states(tournament, stage)
        new_results = [_slot_apply(tournament, row, states[row.key], entries) for row in rows]
        if not any(new_results):
            break
    _rounds_update(tournament, stage)
    if all(row.status in SETTLED for row in rows):
        stage_finish(tournament, stage)


def _slot_apply(
    tournament: Tournament,
    row: TournamentMatch,
    state: brackets.SlotState,
    entries: dict[int, Entry],
) -> bool:
    """Bring one row in line with its resolved state; True when it added a result."""
    if row.status == MatchStatus.DONE:
        return False
    players = state.players
    same_players = (row.entry_one_id, row.entry_two_id) == players
    if state.status in (Slot.BYE, Slot.VOID):
        status = MatchStatus.BYE if state.status == Slot.BYE else MatchStatus.VOID
        if same_players and row.status == status and row.winner_id == state.winner:
            return False
        _slot_fill(row, players, status, state.winner)
        return state.winner is not None
    if state.status == Slot.READY and same_players and row.match_id is not None:
        return False
    if state.status == Slot.WAITING and same_players and row.status == MatchStatus.WAITING:
        return False
    status = MatchStatus.READY if state.status == Slot.READY else MatchStatus.WAITING
    _slot_fill(row, players, status, None)
    if status == MatchStatus.READY:
        withdrawn = [
            p for p in players if p is not None and entries[p].status == Entry.Status.WITHDRAWN
        ]
        if withdrawn:
            winner = players[1] if players[0] in withdrawn else players[0]
            row.status, row.winner_id, row.is_forfeit = MatchStatus.DONE, winner, True
            row.finished_at = timezone.now()
            row.save()
            return True
        match_open(tournament, row)
    return False


def _slot_fill(
    row: TournamentMatch, players: tuple[int | None, int | None], status: str, winner: int | None
) -> None:
    if row.match is not None:
        if has_started(row.match):
            raise ConflictError(f"match {row.key} has already started; it cannot be redrawn")
        match, row.match = row.match, None
        row.save(update_fields=["match"])
        match.delete()
    row.entry_one_id, row.entry_two_id = players
    row.status, row.winner_id = status, winner
    row.save()


# --- round robin (groups, optional knock-out) and Swiss --------------------------------------


def round_robin_create(tournament: Tournament, entry_ids: list[int], user: User) -> None:
    """All rounds at once: snake-seeded groups when there are several, a circle-method
    schedule in each. A bye in the schedule is a rest round, stored as no match at all. The
    matches are stored in bulk (``matches_open_many``): a few queries a round."""
    groups = (
        round_robin.snake_groups(entry_ids, tournament.groups)
        if tournament.groups > 1
        else [list(entry_ids)]
    )
    last_round = 0
    rows = []
    for group_number, members in enumerate(groups, start=1):
        Entry.objects.filter(pk__in=members).update(group=group_number)
        prefix = f"G{group_number}-" if len(groups) > 1 else ""
        section = f"group-{group_number}" if len(groups) > 1 else brackets.Section.MAIN
        schedule = round_robin.round_robin(members, double=tournament.double_round_robin)
        for number, pairs in enumerate(schedule, start=1):
            playing = [(home, away) for home, away in pairs if away is not None]
            rows += [
                TournamentMatch(
                    tournament=tournament,
                    key=f"{prefix}R{number}-{index}",
                    section=section,
                    round=number,
                    index=index,
                    entry_one_id=home,
                    entry_two_id=away,
                )
                for index, (home, away) in enumerate(playing, start=1)
            ]
            last_round = max(last_round, number)
    _rounds_create_many(tournament, Stage.MAIN, range(1, last_round + 1), user)
    matches_open_many(tournament, rows, user)


def knockout_create(tournament: Tournament) -> None:
    """The knock-out stage after the groups: the top ``knockout_per_group`` of each group,
    seeded by the pure ``knockout_qualifiers``, into a single-elimination bracket."""
    sections = sorted(
        set(tournament.matches.filter(stage=Stage.MAIN).values_list("section", flat=True))
    )
    group_order = [
        [row.player for row in section_standings(tournament, section)] for section in sections
    ]
    qualifiers = round_robin.knockout_qualifiers(group_order, tournament.knockout_per_group)
    if len(qualifiers) < 2:
        stage_finish(tournament, Stage.KNOCKOUT)
        return
    bracket = brackets.single_elimination(len(qualifiers), third_place=tournament.third_place)
    bracket_create(tournament, Stage.KNOCKOUT, bracket, list(qualifiers))


def swiss_round_pair(
    *, tournament: Tournament, user: User, deadline: datetime | None = None
) -> Round:
    """The organiser pairs the next Swiss round once the current one is finished; after the
    last round the tournament has finished, and the refusal says so."""
    with organiser_action(tournament, user) as tournament:
        if tournament.format != Format.SWISS:
            raise ConflictError(f"only Swiss rounds are paired on demand, not {tournament.format}")
        if tournament.status == Tournament.Status.FINISHED:
            raise ConflictError(
                f"all {tournament.swiss_rounds} rounds are paired and played: "
                "the tournament is finished"
            )
        check_status(tournament, Tournament.Status.RUNNING)
        round_ = swiss_pair(tournament, user, deadline)
        tournament.save()
        standings_enqueue(tournament)  # a bye counts at once
        audit(tournament, user, "pair_round", current_round=(round_.number - 1, round_.number))
    return round_


def swiss_pair(tournament: Tournament, user: User, deadline: datetime | None = None) -> Round:
    """Pair the next round, its matches stored in bulk (``matches_open_many``)."""
    total = tournament.swiss_rounds or 0
    if tournament.current_round >= total:
        raise ConflictError(f"all {total} rounds are already paired")
    unfinished = tournament.matches.filter(round=tournament.current_round).exclude(
        status__in=SETTLED
    )
    if unfinished.exists():
        keys = ", ".join(row.key for row in unfinished)
        raise ConflictError(f"round {tournament.current_round} is not finished: {keys}")
    try:
        pairing = swiss.pair_round(_swiss_players(tournament))
    except swiss.PairingError as error:
        raise ConflictError(str(error)) from error
    number = tournament.current_round + 1
    round_ = _round_create(tournament, Stage.MAIN, number, deadline)
    rows = [
        TournamentMatch(
            tournament=tournament,
            key=f"R{number}-{index}",
            round=number,
            index=index,
            entry_one_id=one,
            entry_two_id=two,
        )
        for index, (one, two) in enumerate(pairing.pairs, start=1)
    ]
    matches_open_many(tournament, rows, user)
    if pairing.bye is not None:
        TournamentMatch.objects.create(
            tournament=tournament,
            key=f"R{number}-bye",
            round=number,
            index=len(pairing.pairs) + 1,
            entry_one_id=pairing.bye,
            status=MatchStatus.BYE,
            winner_id=pairing.bye,
            bye_points=tournament.bye_points,
        )
    tournament.current_round = number
    return round_


def _swiss_players(tournament: Tournament) -> list[swiss.SwissPlayer]:
    standing = {row.player: row for row in section_standings(tournament, brackets.Section.MAIN)}
    opponents: dict[int, set[int]] = {}
    had_bye: set[int] = set()
    for row in tournament.matches.all():
        if row.entry_one_id is None:  # never in a Swiss round: it tells the type
            continue
        if row.entry_two_id is None:
            if row.status == MatchStatus.BYE:  # a late entrant's missed rounds are not byes
                had_bye.add(row.entry_one_id)
            continue
        opponents.setdefault(row.entry_one_id, set()).add(row.entry_two_id)
        opponents.setdefault(row.entry_two_id, set()).add(row.entry_one_id)
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player")
    if tournament.current_round == 0:
        # Round 1 follows the organiser's seeding: top half against bottom half in seed
        # order, the bye to the last seed (docs/decisions.md D23).
        standing = {}
    return [
        swiss.SwissPlayer(
            id=entry.pk,
            score=standing[entry.pk].match_points if entry.pk in standing else 0.0,
            rating=entry.player.rating,
            opponents=frozenset(opponents.get(entry.pk, ())),
            had_bye=entry.pk in had_bye,
            rank=standing[entry.pk].rank if entry.pk in standing else entry.seed or 0,
        )
        for entry in active
    ]


# --- progress after a result -----------------------------------------------------------------


def progress(tournament: Tournament, row: TournamentMatch) -> None:
    """Move the tournament on after ``row`` got a (new) result."""
    if tournament.is_elimination or row.stage == Stage.KNOCKOUT:
        bracket_sync(tournament, row.stage)
        return
    _rounds_update(tournament, row.stage)
    if tournament.matches.filter(stage=Stage.MAIN).exclude(status__in=SETTLED).exists():
        return
    if tournament.format == Format.ROUND_ROBIN or not _swiss_can_go_on(tournament):
        stage_finish(tournament, Stage.MAIN)


def swiss_end_check(tournament: Tournament) -> None:
    """After a withdrawal: a running Swiss between rounds that cannot go on ends now (D29)."""
    if tournament.format != Format.SWISS or tournament.status != Tournament.Status.RUNNING:
        return
    if tournament.matches.filter(stage=Stage.MAIN).exclude(status__in=SETTLED).exists():
        return
    if not _swiss_can_go_on(tournament):
        stage_finish(tournament, Stage.MAIN)


def _swiss_can_go_on(tournament: Tournament) -> bool:
    """Whether a Swiss has a next round to pair: a round is left, and the players still in are
    at least two with a pairing that repeats no match and no bye. Withdrawals can leave fewer,
    or only players who have met: the Swiss then ends after the rounds played, rather than
    wait for a round that can never be paired (docs/decisions.md D29)."""
    if tournament.current_round >= (tournament.swiss_rounds or 0):
        return False
    players = _swiss_players(tournament)
    if len(players) < 2:
        return False
    try:
        swiss.pair_round(players)
    except swiss.PairingError:
        return False
    return True


def stage_finish(tournament: Tournament, stage: str) -> None:
    needs_knockout = (
        tournament.format == Format.ROUND_ROBIN
        and stage == Stage.MAIN
        and tournament.knockout_per_group > 0
        and not tournament.matches.filter(stage=Stage.KNOCKOUT).exists()
    )
    if needs_knockout:
        knockout_create(tournament)
    elif tournament.status != Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.FINISHED
        tournament.save()


def _round_create(
    tournament: Tournament, stage: str, number: int, deadline: datetime | None = None
) -> Round:
    round_, _ = Round.objects.get_or_create(
        tournament=tournament,
        stage=stage,
        number=number,
        defaults={"opening_variant": opening_variant(tournament, number), "deadline": deadline},
    )
    return round_


def _rounds_create_many(
    tournament: Tournament, stage: str, numbers: Iterable[int], user: User
) -> None:
    """``_round_create`` for many rounds in one INSERT, with their audit trail."""
    known = set(tournament.rounds.filter(stage=stage).values_list("number", flat=True))
    rounds = Round.objects.bulk_create(
        Round(
            tournament=tournament,
            stage=stage,
            number=number,
            opening_variant=opening_variant(tournament, number),
        )
        for number in numbers
        if number not in known
    )
    audit_bulk(user, created=rounds)


def _rounds_update(tournament: Tournament, stage: str) -> None:
    for round_ in tournament.rounds.filter(stage=stage, is_finished=False):
        rows = tournament.matches.filter(stage=stage, round=round_.number)
        if rows.exists() and not rows.exclude(status__in=SETTLED).exists():
            round_.is_finished = True
            round_.save()


def check_round(tournament: Tournament, stage: str, number: int) -> Round:
    round_ = tournament.rounds.filter(stage=stage, number=number).first()
    if round_ is None:
        raise InvalidRequestError(f"there is no round {number} in stage {stage}")
    return round_
