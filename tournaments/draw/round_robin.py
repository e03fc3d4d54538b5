"""Round-robin schedules (circle method), snake-seeded groups and knock-out qualifiers."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.draw.brackets import bracket_size


def round_robin(
    entrants: Sequence[int], *, double: bool = False
) -> list[list[tuple[int, int | None]]]:
    """Rounds of (home, away) pairs in which every two entrants meet once (twice if `double`).

    Circle method: the first entrant stays put while the others rotate one place a round. With
    an odd field a phantom joins, and whoever meets it gets (entrant, None): a bye. The fixed
    entrant alternates home and away; the second cycle of a double round robin swaps sides.

    >>> round_robin([1, 2, 3, 4])[0]
    [(1, 4), (2, 3)]
    """
    if len(set(entrants)) != len(entrants):
        raise ValueError(f"entrants must be distinct, got {list(entrants)}")
    slots: list[int | None] = list(entrants)
    if len(slots) < 2:
        return []
    if len(slots) % 2:
        slots.append(None)
    size = len(slots)
    fixed, rotating = slots[0], slots[1:]
    rounds: list[list[tuple[int, int | None]]] = []
    for number in range(size - 1):
        line = [fixed, *rotating]
        pairs = []
        for i in range(size // 2):
            home, away = line[i], line[size - 1 - i]
            if i == 0 and number % 2:
                home, away = away, home
            pairs.append(_with_bye_last(home, away))
        rounds.append(pairs)
        rotating = [rotating[-1], *rotating[:-1]]
    if double:
        rounds += [[_with_bye_last(away, home) for home, away in round_] for round_ in rounds]
    return rounds


def _with_bye_last(home: int | None, away: int | None) -> tuple[int, int | None]:
    if home is None:
        assert away is not None
        return away, None
    return home, away


def snake_groups(entrants_by_seed: Sequence[int], groups: int) -> list[list[int]]:
    """Deal seeds into groups boustrophedon: with 3 groups, seeds 1-2-3 then 6-5-4, then 7-8-9.

    >>> snake_groups([1, 2, 3, 4, 5, 6], 3)
    [[1, 6], [2, 5], [3, 4]]
    """
    if groups < 1:
        raise ValueError(f"need at least one group, got {groups}")
    dealt: list[list[int]] = [[] for _ in range(groups)]
    for i, entrant in enumerate(entrants_by_seed):
        row, column = divmod(i, groups)
        dealt[groups - 1 - column if row % 2 else column].append(entrant)
    return dealt


def knockout_qualifiers(group_standings: Sequence[Sequence[int]], per_group: int) -> list[int]:
    """Seeding order (seed 1 first) for a knock-out stage from the top `per_group` of each group.

    All group winners are seeded first (in group order), then all runners-up, and so on. Each
    later tier is rotated (or reversed) so that as few first-round matches as possible pair two
    players from the same group; ties keep the plain group order. A group with fewer than
    `per_group` players sends the ones it has.

    >>> knockout_qualifiers([[11, 12, 13], [21, 22, 23]], 2)
    [11, 21, 12, 22]
    """
    if per_group < 1:
        raise ValueError(f"per_group must be at least 1, got {per_group}")
    group_of = {player: g for g, ranked in enumerate(group_standings) for player in ranked}
    tiers = [
        [ranked[tier] for ranked in group_standings if len(ranked) > tier]
        for tier in range(per_group)
    ]
    total = sum(len(tier) for tier in tiers)
    if total < 2:
        return [player for tier in tiers for player in tier]
    size = bracket_size(total)
    order = list(tiers[0])
    for tier in tiers[1:]:
        arrangements: list[list[int]] = [tier[k:] + tier[:k] for k in range(len(tier))]
        arrangements += [list(reversed(a)) for a in arrangements]
        order += min(arrangements, key=lambda a: _clashes([*order, *a], group_of, size))
    return order


def _clashes(seeded: list[int], group_of: dict[int, int], size: int) -> int:
    """First-round matches between two players of the same group, seeds 1..len(seeded) placed."""
    return sum(
        1
        for seed in range(1, len(seeded) + 1)
        if seed < size + 1 - seed <= len(seeded)
        and group_of[seeded[seed - 1]] == group_of[seeded[size - seed]]
    )
