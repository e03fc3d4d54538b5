"""Drawing and advancing each format: load rows → build the pure dataclasses → call the pure
function (tournaments.brackets, round_robin, swiss) → save what it returns. The use-case is
``swiss_round_pair``; the steps with a leading underscore run inside the transaction of a
use-case of this package (``lifecycle``, ``results``) and are called from nowhere else."""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable
from datetime import datetime

from django.db.models import Count, F, Q
from django.utils import timezone

from common.errors import ConflictError, InvalidRequestError
from games.selectors import User
from players.models import Player
from tournaments.draw import brackets, round_robin, swiss
from tournaments.models import Entry, Round, Stage, Tournament, TournamentMatch
from tournaments.services.common import (
    SETTLED,
    RowSaves,
    ambient_actor,
    audit,
    audit_bulk,
    check_status,
    games_matches_create,
    has_started,
    match_open,
    matches_open_many,
    opening_variant,
    organiser_action,
)
from tournaments.services.standings import bracket_states, section_standings, standings_enqueue

Format = Tournament.Format
MatchStatus = TournamentMatch.Status
Slot = brackets.SlotStatus


def _draw_start(tournament: Tournament, user: User) -> None:
    """Draw the first matches of a tournament that ``user`` has just started."""
    entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("seed"))
    ids = [entry.pk for entry in entries]
    if tournament.format == Format.ROUND_ROBIN:
        _round_robin_create(tournament, ids, user)
    elif tournament.format == Format.SWISS:
        tournament.swiss_rounds = tournament.swiss_rounds or swiss.default_rounds(len(ids))
        _swiss_pair(tournament, user)
    else:
        _bracket_create(tournament, Stage.MAIN, _main_bracket(tournament, len(ids)), ids, user)
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


def _bracket_create(
    tournament: Tournament,
    stage: str,
    bracket: brackets.Bracket,
    entry_ids: list[int],
    user: User | None,
) -> None:
    """Store ``bracket`` as rows of ``stage`` with the slots its seeding fills at once (the
    first matches, the byes and what they advance), in play order; the ready matches opened
    in bulk (``matches_open_many``: a few queries whatever the field). ``entry_ids`` are in seed
    order."""
    seeding = dict(enumerate(entry_ids, start=1))
    states = brackets.resolve(bracket, seeding, {})
    withdrawn = _withdrawn(tournament)
    rows, opened = [], set()
    for match in bracket.matches:
        state = states[match.key]
        status = _STORED_STATUS[state.status]
        if status == MatchStatus.READY:  # opened below, or forfeited by ``_bracket_sync``
            status = MatchStatus.WAITING
            if not withdrawn & set(state.players):
                opened.add(match.key)
        rows.append(
            TournamentMatch(
                tournament=tournament,
                stage=stage,
                key=match.key,
                section=match.section,
                round=match.round,
                index=match.index,
                sources=[brackets.source_text(source) for source in match.sources],
                match_length=match.match_length,
                entry_one_id=state.players[0],
                entry_two_id=state.players[1],
                status=status,
                winner_id=state.winner,
            )
        )
    seeds = {str(number): entry for number, entry in seeding.items()}
    tournament.brackets = {**tournament.brackets, stage: {"format": bracket.format, "seeds": seeds}}
    tournament.save()
    for number in sorted({match.round for match in bracket.matches}):
        _round_create(tournament, stage, number)
    matches_open_many(tournament, rows, user, opened=opened)
    if len(opened) < sum(state.status == Slot.READY for state in states.values()):
        _bracket_sync(tournament, stage)  # a withdrawn player's first match is forfeited
    else:
        _bracket_settle(tournament, stage, {match.round for match in bracket.matches})


# A slot's state as its row stores it (a result is stored by ``tournament_match_record``).
_STORED_STATUS = {
    Slot.WAITING: MatchStatus.WAITING,
    Slot.READY: MatchStatus.READY,
    Slot.BYE: MatchStatus.BYE,
    Slot.VOID: MatchStatus.VOID,
}


def _withdrawn(tournament: Tournament) -> set[int | None]:
    return set(
        tournament.entries.filter(status=Entry.Status.WITHDRAWN)
        .order_by()  # a set: not in the entries' order (a join on the tournament)
        .values_list("pk", flat=True)
    )


def _bracket_sync(tournament: Tournament, stage: str) -> None:
    """Fill every slot from the results so far: open the matches whose players are now known,
    record byes, forfeit withdrawn players, and replace unstarted matches whose players changed
    (after a correction). Repeats until nothing changes, then finishes the stage if it is over.
    The full path, after a correction; a new result takes ``_bracket_advance``."""
    withdrawn = _withdrawn(tournament)
    while True:
        states, _, rows = bracket_states(tournament, stage)
        new_results = [_slot_apply(tournament, row, states[row.key], withdrawn) for row in rows]
        if not any(new_results):
            break
    _bracket_settle(tournament, stage, {row.round for row in rows})


def _bracket_advance(tournament: Tournament, row: TournamentMatch) -> set[int]:
    """``row`` has its first result: bring up to date only the matches it feeds (its winner's
    next match, its loser's in a double elimination, a grand-final reset), then those that a
    bye or a withdrawn player's forfeit decides at once feed, and so on. Each slot is computed
    from the slots that feed it (``brackets.slot_state``, what ``resolve`` computes for it in
    turn), so a result costs a few queries whatever the size of the bracket (docs/decisions.md
    D73). The rows are saved with the audit entries auditlog would write, without its read of
    each row before a save (``RowSaves``: they were read here, under the tournament's lock),
    the entries of a pass written in one INSERT (docs/decisions.md D141). Returns the entries
    whose results changed: ``row``'s players, and those of a match a withdrawn player's forfeit
    decided at once."""
    stage = row.stage
    changed = {entry for entry in (row.entry_one_id, row.entry_two_id) if entry is not None}
    seeding = {int(number): entry for number, entry in tournament.brackets[stage]["seeds"].items()}
    states = {row.key: _stored_state(row)}
    withdrawn = _WithdrawnWhenAsked(tournament)
    rounds = {row.round}
    decided = [row.key]
    settled: dict[str, bool] = {}  # the rows brought up to date: whether each is settled
    saves = RowSaves()
    while decided:
        feeding = [f"winner:{key}" for key in decided] + [
            f"loser:{key}{side}" for key in decided for side in ("", ":0", ":1")
        ]
        fed = list(
            tournament.matches.filter(stage=stage)
            .filter(Q(sources__0__in=feeding) | Q(sources__1__in=feeding))
            .order_by("id")  # play order: a slot after those that feed it
        )
        sources = {_source_key(text) for other in fed for text in other.sources} - {None}
        missing = sources - set(states)
        if missing:  # by key: in no particular order (no join on the tournament to sort)
            for source in tournament.matches.filter(stage=stage, key__in=missing).order_by():
                states[source.key] = _stored_state(source)
        decided = []
        opening = _Opening(saves)
        for other in fed:
            saves.read(other)
            before = _stored_state(other)
            state = brackets.slot_state(_bracket_match(other), len(seeding), seeding, states)
            _slot_apply(tournament, other, state, withdrawn, opening=opening, saves=saves)
            states[other.key] = _stored_state(other)
            settled[other.key] = other.status in SETTLED
            if states[other.key] != before and other.status in SETTLED:
                decided.append(other.key)
                rounds.add(other.round)
                if other.status == MatchStatus.DONE:
                    changed.update(p for p in (other.entry_one_id, other.entry_two_id) if p)
        _bracket_open(tournament, opening)
    saves.write()
    # Each round in ``rounds`` had a match unsettled until now: ``row``, or one just decided.
    _bracket_settle(
        tournament, stage, rounds, unsettled=not all(settled.values()), unfinished=True
    )
    return changed


class _WithdrawnWhenAsked:
    """The withdrawn entries of ``tournament`` (``_withdrawn``), read when first asked about:
    only a match made ready asks (a result that makes none ready does not read them)."""

    def __init__(self, tournament: Tournament) -> None:
        self._tournament = tournament
        self._ids: set[int | None] | None = None

    def __contains__(self, entry: object) -> bool:
        if self._ids is None:
            self._ids = _withdrawn(self._tournament)
        return entry in self._ids


class _Opening(list[TournamentMatch]):
    """The rows a pass of ``_bracket_advance`` makes ready, and the saves that store them."""

    def __init__(self, saves: RowSaves) -> None:
        super().__init__()
        self.saves = saves


def _bracket_open(tournament: Tournament, rows: list[TournamentMatch]) -> None:
    """``match_open`` for each of ``rows`` (both players known, in play order), their games
    matches created in one INSERT for each run of rows with the same match length and options
    (``matches_create_many``, the rows ``match_create`` stores: D58), each row then saved once
    with its players, its status and its match (docs/decisions.md D108); through the pass's
    ``RowSaves`` when ``rows`` is an ``_Opening`` (D141)."""
    if not rows:
        return
    entries = [entry for row in rows for entry in (row.entry_one_id, row.entry_two_id) if entry]
    players: dict[int, Player] = {
        player.entry_id: player  # the players alone, each once (as ``matches_open_many``)
        for player in Player.objects.filter(entries__pk__in=entries)
        .annotate(entry_id=F("entries__pk"))
        .order_by()
    }
    games_matches_create(tournament, rows, players)
    saves = rows.saves if isinstance(rows, _Opening) else None
    for row in rows:
        row.status = MatchStatus.READY
        if saves is None:
            row.save()
        else:
            saves.save(row)


def _bracket_settle(
    tournament: Tournament,
    stage: str,
    rounds: set[int],
    *,
    unsettled: bool = False,
    unfinished: bool = False,
) -> None:
    """Close the ``rounds`` of ``stage`` that are now settled, and finish the stage when every
    match of it is; ``unsettled``: a row of the stage is known to be left unsettled (the stage
    goes on: no need to look); ``unfinished``: as ``_rounds_update`` takes it."""
    _rounds_update(tournament, stage, rounds, unfinished=unfinished)
    if unsettled:
        return
    if not tournament.matches.filter(stage=stage).exclude(status__in=SETTLED).exists():
        _stage_finish(tournament, stage)


def _source_key(text: str) -> str | None:
    source = brackets.parse_source(text)
    return source.key if isinstance(source, brackets.WinnerOf | brackets.LoserOf) else None


def _bracket_match(row: TournamentMatch) -> brackets.BracketMatch:
    return brackets.BracketMatch(
        key=row.key,
        section=brackets.Section(row.section),
        round=row.round,
        index=row.index,
        sources=(brackets.parse_source(row.sources[0]), brackets.parse_source(row.sources[1])),
        match_length=row.match_length,
    )


def _stored_state(row: TournamentMatch) -> brackets.SlotState:
    """The slot as ``row`` stores it: what ``resolve`` gave it, and its result."""
    players = (row.entry_one_id, row.entry_two_id)
    if row.status == MatchStatus.DONE:
        loser = players[1] if row.winner_id == players[0] else players[0]
        return brackets.SlotState(row.key, players, Slot.DONE, row.winner_id, loser)
    slot = {
        MatchStatus.BYE: Slot.BYE,
        MatchStatus.VOID: Slot.VOID,
        MatchStatus.READY: Slot.READY,
    }.get(MatchStatus(row.status), Slot.WAITING)
    winner = row.winner_id if slot == Slot.BYE else None
    return brackets.SlotState(row.key, players, slot, winner, None)


def _slot_apply(
    tournament: Tournament,
    row: TournamentMatch,
    state: brackets.SlotState,
    withdrawn: Container[int | None],
    *,
    opening: list[TournamentMatch] | None = None,
    saves: RowSaves | None = None,
) -> bool:
    """Bring one row in line with its resolved state; True when it added a result. A row that
    becomes ready is opened at once, or, given ``opening``, added to it for ``_bracket_open``
    (its players and status set, not yet saved). ``saves``: the row is saved through them (it
    was read by them: ``RowSaves.read``), not with ``save()``."""
    if row.status == MatchStatus.DONE:
        return False
    players = state.players
    same_players = (row.entry_one_id, row.entry_two_id) == players
    if state.status in (Slot.BYE, Slot.VOID):
        status = MatchStatus.BYE if state.status == Slot.BYE else MatchStatus.VOID
        if same_players and row.status == status and row.winner_id == state.winner:
            return False
        _slot_fill(row, players, status, state.winner, saves=saves)
        return state.winner is not None
    if state.status == Slot.READY and same_players and row.match_id is not None:
        return False
    if state.status == Slot.WAITING and same_players and row.status == MatchStatus.WAITING:
        return False
    status = MatchStatus.READY if state.status == Slot.READY else MatchStatus.WAITING
    out = [p for p in players if p in withdrawn] if status == MatchStatus.READY else []
    if status == MatchStatus.READY and not out:
        # One save of the row, by match_open: its players, its status and its games match in
        # one audit entry (D108), not the players in one and the match in the next.
        _slot_fill(row, players, status, None, save=False, saves=saves)
        if opening is None:
            match_open(tournament, row)
        else:
            opening.append(row)
        return False
    _slot_fill(row, players, status, None, saves=saves)
    if out:
        winner = players[1] if players[0] in out else players[0]
        row.status, row.winner_id, row.is_forfeit = MatchStatus.DONE, winner, True
        row.finished_at = timezone.now()
        _row_save(row, saves)
        return True
    return False


def _slot_fill(
    row: TournamentMatch,
    players: tuple[int | None, int | None],
    status: str,
    winner: int | None,
    *,
    save: bool = True,
    saves: RowSaves | None = None,
) -> None:
    """Set the row's players, status and winner (saved unless ``save`` is false, when the
    caller saves it), after deleting an unstarted games match drawn for other players."""
    if row.match is not None:
        if has_started(row.match):
            raise ConflictError(f"match {row.key} has already started; it cannot be redrawn")
        match, row.match = row.match, None
        _row_save(row, saves, update_fields=["match"])
        match.delete()
    row.entry_one_id, row.entry_two_id = players
    row.status, row.winner_id = status, winner
    if save:
        _row_save(row, saves)


def _row_save(
    row: TournamentMatch, saves: RowSaves | None, *, update_fields: list[str] | None = None
) -> None:
    if saves is None:
        row.save(update_fields=update_fields)
    else:
        saves.save(row, update_fields=update_fields)


# --- round robin (groups, optional knock-out) and Swiss --------------------------------------


def _round_robin_create(tournament: Tournament, entry_ids: list[int], user: User) -> None:
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


def _knockout_create(tournament: Tournament) -> None:
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
        _stage_finish(tournament, Stage.KNOCKOUT)
        return
    bracket = brackets.single_elimination(len(qualifiers), third_place=tournament.third_place)
    _bracket_create(tournament, Stage.KNOCKOUT, bracket, list(qualifiers), ambient_actor())


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
        round_ = _swiss_pair(tournament, user, deadline)
        tournament.save()
        if tournament.matches.filter(round=round_.number, status=MatchStatus.BYE).exists():
            standings_enqueue(tournament)  # a bye counts at once; the pairs change nothing
        audit(tournament, user, "pair_round", current_round=(round_.number - 1, round_.number))
    return round_


def _swiss_pair(tournament: Tournament, user: User, deadline: datetime | None = None) -> Round:
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
    rows = list(tournament.matches.all())  # a Swiss has one stage and one section
    standing = {
        row.player: row
        for row in section_standings(tournament, brackets.Section.MAIN, Stage.MAIN, rows)
    }
    opponents: dict[int, set[int]] = {}
    had_bye: set[int] = set()
    for row in rows:
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


def _progress(
    tournament: Tournament, row: TournamentMatch, *, first: bool = False
) -> set[int] | None:
    """Move the tournament on after ``row`` got a (new) result: ``first`` when it had none, so
    that in a bracket only the matches it feeds change (``_bracket_advance``); after a
    correction the whole bracket is brought in line (``_bracket_sync``). Returns the entries
    whose results changed when those are all that changed in the standings of ``row``'s
    stage (a bracket's first result), else None."""
    if tournament.is_elimination or row.stage == Stage.KNOCKOUT:
        if first:
            return _bracket_advance(tournament, row)
        _bracket_sync(tournament, row.stage)
        return None
    _rounds_update(tournament, row.stage, {row.round})
    if tournament.matches.filter(stage=Stage.MAIN).exclude(status__in=SETTLED).exists():
        return None
    if tournament.format == Format.ROUND_ROBIN or not _swiss_can_go_on(tournament):
        _stage_finish(tournament, Stage.MAIN)
    return None


def _swiss_end_check(tournament: Tournament) -> None:
    """After a withdrawal: a running Swiss between rounds that cannot go on ends now (D29)."""
    if tournament.format != Format.SWISS or tournament.status != Tournament.Status.RUNNING:
        return
    if tournament.matches.filter(stage=Stage.MAIN).exclude(status__in=SETTLED).exists():
        return
    if not _swiss_can_go_on(tournament):
        _stage_finish(tournament, Stage.MAIN)


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


def _stage_finish(tournament: Tournament, stage: str) -> None:
    needs_knockout = (
        tournament.format == Format.ROUND_ROBIN
        and stage == Stage.MAIN
        and tournament.knockout_per_group > 0
        and not tournament.matches.filter(stage=Stage.KNOCKOUT).exists()
    )
    if needs_knockout:
        _knockout_create(tournament)
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


def _rounds_update(
    tournament: Tournament, stage: str, numbers: Collection[int], *, unfinished: bool = False
) -> None:
    """Mark finished those of the rounds ``numbers`` of ``stage`` whose matches are all
    settled, in two queries whatever their number (and a save for each round it finishes).
    ``unfinished``: each of these rounds had a match unsettled until now (so it is not
    finished, and has matches): the rounds still holding an unsettled match are read first, in
    one query, and the others only when there are any (docs/decisions.md D141)."""
    if unfinished:
        open_rounds = set(
            tournament.matches.filter(stage=stage, round__in=numbers)
            .exclude(status__in=SETTLED)
            .order_by()
            .values_list("round", flat=True)
            .distinct()
        )
        numbers = set(numbers) - open_rounds
        if not numbers:
            return
    rounds = list(
        tournament.rounds.filter(stage=stage, is_finished=False, number__in=numbers).order_by(
            "number"  # the rounds' order in their stage, without a join on the tournament
        )
    )
    if not rounds:
        return
    counts = {
        number: (total, unsettled)
        for number, total, unsettled in tournament.matches.filter(
            stage=stage, round__in=[round_.number for round_ in rounds]
        )
        .values("round")
        .order_by("round")
        .annotate(total=Count("id"), unsettled=Count("id", filter=~Q(status__in=SETTLED)))
        .values_list("round", "total", "unsettled")
    }
    for round_ in rounds:
        total, unsettled = counts.get(round_.number, (0, 0))
        if total and not unsettled:
            round_.is_finished = True
            round_.save()


def _check_round(tournament: Tournament, stage: str, number: int) -> Round:
    round_ = tournament.rounds.filter(stage=stage, number=number).first()
    if round_ is None:
        raise InvalidRequestError(f"there is no round {number} in stage {stage}")
    return round_
