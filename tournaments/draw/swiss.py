"""Swiss pairing, one round at a time, by maximum-weight matching over the legal pairs.

Legality is absolute: no rematches, at most one bye per player. Every matching is a
maximum-cardinality one, so a round pairs whenever a legal pairing exists. Among legal
pairings the edge weights prefer, in this order:

1. as few and as small score-group gaps as possible (a pair's cost grows with the square of
   the distance between the two score groups, so two one-group floats beat one two-group float);
2. within a score group, top half against bottom half (1 v m/2+1, 2 v m/2+2, ...); a player
   floating down meets the top of the group below, and the bottom of a group is the one to float;
3. the bye to the lowest-ranked player who has not had one (the bye acts as a phantom player
   in a score group of its own below everybody, so it is never given to a higher score group
   to spare a float).

Large fields are cut into blocks of at most `BLOCK_SIZE` players that are matched top to bottom:
whole score groups are packed together, a group larger than a block is split into slices that
each hold matching parts of its top and bottom halves (so the ideal 1 v m/2+1 pairs stay in one
block), and the players a block cannot pair float into the next block. If the last block cannot
finish the round, the whole field is matched again over all legal pairs, so the guarantee holds.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

BLOCK_SIZE = 48


@dataclass(frozen=True)
class SwissPlayer:
    id: int
    score: float  # match points so far
    rating: float = 1500.0
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    rank: int = 0  # current standing rank (1 = best); 0 for all: order by score, rating, id


@dataclass(frozen=True)
class SwissRound:
    pairs: tuple[tuple[int, int], ...]  # higher-ranked player first, best pairs first
    bye: int | None


class PairingError(ValueError):
    """No legal pairing exists (every candidate pairing repeats a match or a bye)."""


def default_rounds(n: int) -> int:
    """ceil(log2 n), at least 1: default_rounds(1000) == 10."""
    if n < 1:
        raise ValueError(f"a Swiss needs at least one player, got {n}")
    return max(1, math.ceil(math.log2(n)))


@dataclass(frozen=True)
class _Slot:
    player: SwissPlayer
    order: int  # 0 = best in the field
    group: int  # score group, 0 = top
    position: int  # place within its score group
    group_size: int


_PHANTOM = -1  # the vertex of the bye or float phantom; players are pool indices 0, 1, ...
RADIUS = 4


def pair_round(players: Sequence[SwissPlayer]) -> SwissRound:
    """Pair one round; raise PairingError when no legal pairing exists."""
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("the same player is listed twice")
    slots = _rank(players)
    if not slots:
        return SwissRound((), None)
    pairing = None
    if len(slots) > BLOCK_SIZE:
        pairing = _pair_blocks(slots)
    if pairing is None:
        pairing = _pair_whole(slots)
    pairs, bye = pairing
    ordered = sorted((min(a, b), max(a, b)) for a, b in pairs)
    return SwissRound(
        tuple((slots[a].player.id, slots[b].player.id) for a, b in ordered),
        None if bye is None else slots[bye].player.id,
    )


def _rank(players: Sequence[SwissPlayer]) -> list[_Slot]:
    ranked = sorted(players, key=lambda p: (-p.score, p.rank, -p.rating, p.id))
    scores = sorted({p.score for p in ranked}, reverse=True)
    group_of = {score: g for g, score in enumerate(scores)}
    sizes = [0] * len(scores)
    positions = []
    for player in ranked:
        g = group_of[player.score]
        positions.append(sizes[g])
        sizes[g] += 1
    return [
        _Slot(p, i, group_of[p.score], positions[i], sizes[group_of[p.score]])
        for i, p in enumerate(ranked)
    ]


# A cost is (squared score-group gap, fold); `_weights` scales them per matching so that a
# smaller total gap always beats any fold improvement.
_Cost = tuple[int, int]


def _pair_cost(a: _Slot, b: _Slot) -> _Cost:
    gap = abs(a.group - b.group)
    if gap == 0:
        return 0, abs(abs(a.position - b.position) - a.group_size // 2)
    upper, lower = (a, b) if a.group < b.group else (b, a)
    return gap * gap, (upper.group_size - 1 - upper.position) + lower.position


def _phantom_cost(a: _Slot, group: int) -> _Cost:
    """Pairing `a` with a phantom at the top of `group`: the bye, or a float to the next block."""
    return (group - a.group) ** 2, a.group_size - 1 - a.position


def _bye_group(slots: Sequence[_Slot]) -> int:
    """The bye's phantom sits one score group below the lowest: a bye to a player of the lowest
    group costs a gap of 1, to one a group higher 4, and so on, which is always more than the
    floats it would save (at most one a group boundary). So the bye goes to the lowest score
    group that can take it, never to a leader to spare a float (issue 14: in a 3 + 4 field the
    bye went to the third leader instead of the last of the four on 0)."""
    return slots[-1].group + 1


def _weights(costs: dict[tuple[int, int], _Cost], vertices: int) -> dict[tuple[int, int], int]:
    """Positive integer weights: maximising their sum minimises total gap first, then fold."""
    top_gap = max((g for g, _ in costs.values()), default=0)
    top_fold = max((f for _, f in costs.values()), default=0)
    scale = (vertices // 2 + 1) * top_fold + 1
    base = (top_gap + 2) ** 2 * scale * 1000
    return {edge: base - (g * scale + f) for edge, (g, f) in costs.items()}


def _is_legal(a: _Slot, b: _Slot) -> bool:
    return b.player.id not in a.player.opponents and a.player.id not in b.player.opponents


def _candidates(pool: Sequence[_Slot], radius: int | None) -> set[tuple[int, int]]:
    """Index pairs worth an edge: near in rank, or near each other's ideal fold partner.

    `radius` None means every pair. Thin candidate sets keep the matching fast; callers widen
    the radius when the thin set cannot pair everybody.
    """
    size = len(pool)
    if radius is None or 4 * radius >= size:
        return {(i, j) for i in range(size) for j in range(i + 1, size)}
    by_group: dict[int, list[tuple[int, int]]] = {}
    for i, slot in enumerate(pool):
        by_group.setdefault(slot.group, []).append((slot.position, i))
    pairs = {(i, j) for i in range(size) for j in range(i + 1, min(size, i + radius + 1))}
    for i, slot in enumerate(pool):
        members = by_group[slot.group]
        target = bisect.bisect_left(members, (slot.position + slot.group_size // 2, -1))
        for _, j in members[max(0, target - radius) : target + radius + 1]:
            if j != i:
                pairs.add((min(i, j), max(i, j)))
    return pairs


def _match(
    pool: Sequence[_Slot], *, phantom: str | None, phantom_group: int = 0
) -> tuple[list[tuple[int, int]], list[_Slot], int | None]:
    """Maximum-cardinality, maximum-weight matching of `pool` (ranked best first).

    `phantom` adds one vertex: "bye" (only players without a bye may take it) or "float" (its
    partner floats down to the next block); either sits at the top of `phantom_group`.
    Starts from thin candidate edges and widens them while somebody is left unpaired.
    Returns the pairs (slot orders), the unpaired slots (the float's partner among them) and
    the order of the bye's slot.
    """
    radius: int | None = RADIUS
    while True:
        costs = {
            (i, j): _pair_cost(pool[i], pool[j])
            for i, j in _candidates(pool, radius)
            if _is_legal(pool[i], pool[j])
        }
        if phantom is not None:
            reach = len(pool) if radius is None else 2 * radius
            takers = [i for i, s in enumerate(pool) if phantom == "float" or not s.player.had_bye]
            for i in takers[-reach:]:
                costs[(i, _PHANTOM)] = _phantom_cost(pool[i], phantom_group)
        graph = nx.Graph()
        graph.add_nodes_from(range(len(pool)))
        for (i, j), weight in _weights(costs, len(pool) + 1).items():
            graph.add_edge(i, j, weight=weight)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) == graph.number_of_nodes() or radius is None:
            break
        radius = None if 8 * radius >= len(pool) else 2 * radius
    pairs, matched, taker = [], set(), None
    for u, v in matching:
        if _PHANTOM in (u, v):
            taker = v if u == _PHANTOM else u
            if phantom == "bye":
                matched.add(taker)
            continue
        pairs.append((pool[u].order, pool[v].order))
        matched.update((u, v))
    unpaired = [slot for i, slot in enumerate(pool) if i not in matched]
    bye = pool[taker].order if phantom == "bye" and taker is not None else None
    return pairs, unpaired, bye


def _pair_whole(slots: Sequence[_Slot]) -> tuple[list[tuple[int, int]], int | None]:
    """Match the whole field at once (small fields, or when the blocks could not finish)."""
    odd = len(slots) % 2 == 1
    phantom = "bye" if odd else None
    pairs, unpaired, bye = _match(slots, phantom=phantom, phantom_group=_bye_group(slots))
    if not unpaired and (bye is not None) == odd:
        return pairs, bye
    names = ", ".join(str(s.player.id) for s in unpaired if s.order != bye) or "the bye"
    raise PairingError(
        f"no legal pairing for {len(slots)} players: at best {names} would be left"
        " without a new opponent (every other pairing repeats a match or a bye)"
    )


def _pair_blocks(slots: Sequence[_Slot]) -> tuple[list[tuple[int, int]], int | None] | None:
    """Block by block, top down; None when the bottom block is left with unpaired players."""
    blocks = _blocks(slots)
    pairs: list[tuple[int, int]] = []
    carried: list[_Slot] = []
    bye = None
    for k, block in enumerate(blocks):
        pool = carried + block
        if k == len(blocks) - 1:
            phantom, group = ("bye" if len(pool) % 2 else None), _bye_group(slots)
        else:
            phantom, group = ("float" if len(pool) % 2 else None), blocks[k + 1][0].group
        found, carried, bye = _match(pool, phantom=phantom, phantom_group=group)
        pairs.extend(found)
    if carried:
        return None
    return pairs, bye


def _blocks(slots: Sequence[_Slot]) -> list[list[_Slot]]:
    groups: list[list[_Slot]] = []
    for slot in slots:
        if slot.position == 0:
            groups.append([])
        groups[-1].append(slot)
    blocks: list[list[_Slot]] = []
    current: list[_Slot] = []
    for group in groups:
        if len(group) > BLOCK_SIZE:
            if current:
                blocks.append(current)
                current = []
            blocks.extend(_slices(group))
        elif len(current) + len(group) > BLOCK_SIZE:
            blocks.append(current)
            current = list(group)
        else:
            current.extend(group)
    if current:
        blocks.append(current)
    return blocks


def _slices(group: list[_Slot]) -> list[list[_Slot]]:
    """Split a big score group so each slice holds top-half players and their fold partners."""
    half = len(group) // 2
    count = math.ceil(len(group) / BLOCK_SIZE)
    step = math.ceil(half / count)
    top, bottom = group[:half], group[half:]
    slices = []
    for t in range(count):
        end = (t + 1) * step if t < count - 1 else len(bottom)
        slices.append(top[t * step : (t + 1) * step] + bottom[t * step : end])
    return [s for s in slices if s]
