"""Per-variant outcome rates of a game from the first mover's view, measured by self-play.

The match table (``games.analysis.match_table``) needs, for each game of the cycle, how often
the side that moves first wins or loses it and by how many points: P(wins 1), P(wins 2),
P(wins 3), P(loses 1), ..., P(tie). ``VariantRates`` holds them, ``Rates`` one per variant with
where they came from, loadable from a small JSON file:

    python -m games.analysis.rates --weights DIR --games 2000 --seed 1 --out rates.json

plays ``--games`` games per variant with white moving first and as many with black first, both
sides the network of ``DIR/<variant>.npz`` at 0-ply (``games.analysis.player``). Game ``i`` of a
variant draws its dice from a generator seeded by ``(seed, variant, i)``, so the same seed gives
the same file. The weights are read from a copy in a temporary folder, never in place (a trainer
may be writing them). A variant whose weights do not load is played by uniform random play, and
the file says so (``source``).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.engine.generate import Outcome, legal_plays
from games.engine.options import DEFAULT_OPTIONS, VARIANT_NAMES, Options
from games.engine.position import BLACK, WHITE, Colour, Position
from games.engine.results import GameResult
from games.engine.variants import start_position

from .net import Network
from .player import evaluate_plays

MAX_POINTS = 3  # a triple (Tabla with tabla_triple) is the largest game value before the cube
MAX_PLIES = 2000  # as in training: a locked Gjul Bara game is dropped unfinished
# The rates measured by self-play of the networks (docs/analysis.md, "Match table").
RATES_FILE = Path(__file__).with_name("rates.json")
TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class VariantRates:
    """One game's outcomes from the first mover's view: ``win[m - 1]`` is P(the side that
    moves first wins m points), ``lose[m - 1]`` P(it loses m points), ``tie`` P(a tie); points
    before the cube, m = 1..3. They sum to 1."""

    win: tuple[float, ...]
    lose: tuple[float, ...]
    tie: float = 0.0

    def __post_init__(self) -> None:
        values = (*self.win, *self.lose, self.tie)
        if len(self.win) != MAX_POINTS or len(self.lose) != MAX_POINTS:
            raise ValueError(f"win and lose need {MAX_POINTS} rates each (1, 2, 3 points)")
        if any(value < 0 for value in values):
            raise ValueError(f"negative rate in {values}")
        if abs(sum(values) - 1.0) > 1e-6:
            raise ValueError(f"rates sum to {sum(values)}, not 1")

    @classmethod
    def of(cls, win: Sequence[float], lose: Sequence[float], tie: float = 0.0) -> VariantRates:
        """Rates from lists of any length up to 3 (the missing larger results are 0)."""
        pad = [0.0] * MAX_POINTS
        return cls(tuple([*win, *pad][:MAX_POINTS]), tuple([*lose, *pad][:MAX_POINTS]), float(tie))

    @classmethod
    def from_counts(cls, counts: Mapping[str, int]) -> VariantRates:
        """From counts keyed ``"+m"`` (first mover wins m), ``"-m"`` and ``"0"`` (a tie)."""
        total = sum(counts.values())
        if total <= 0:
            raise ValueError("no finished games to count")
        win = [counts.get(f"+{m}", 0) / total for m in range(1, MAX_POINTS + 1)]
        lose = [counts.get(f"-{m}", 0) / total for m in range(1, MAX_POINTS + 1)]
        return cls.of(win, lose, counts.get("0", 0) / total)

    @property
    def first_mover_wins(self) -> float:
        return sum(self.win)

    def outcomes(self) -> list[tuple[int, float]]:
        """(points to the first mover, probability): +m a win of m, -m a loss of m, 0 a tie."""
        pairs = [(m, p) for m, p in enumerate(self.win, 1)]
        pairs += [(-m, p) for m, p in enumerate(self.lose, 1)]
        pairs.append((0, self.tie))
        return pairs

    def to_json(self) -> dict[str, Any]:
        return {"win": list(self.win), "lose": list(self.lose), "tie": self.tie}

    @classmethod
    def from_json(cls, data: Any) -> VariantRates:
        if not isinstance(data, Mapping):
            raise ValueError(f"variant rates must be an object, got {data!r}")
        return cls.of(
            [float(v) for v in data.get("win", [])],
            [float(v) for v in data.get("lose", [])],
            float(data.get("tie", 0.0)),
        )


@dataclass(frozen=True, slots=True)
class Rates:
    """The outcome rates of each variant, with how they were measured (``meta``)."""

    variants: Mapping[str, VariantRates]
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, variant: str) -> VariantRates:
        return self.variants[variant]

    def to_json(self) -> dict[str, Any]:
        return {
            "meta": dict(self.meta),
            "variants": {name: rates.to_json() for name, rates in self.variants.items()},
        }

    @classmethod
    def from_json(cls, data: Any) -> Rates:
        if not isinstance(data, Mapping) or not isinstance(data.get("variants"), Mapping):
            raise ValueError("rates need a 'variants' object")
        variants = {name: VariantRates.from_json(v) for name, v in data["variants"].items()}
        unknown = set(variants) - set(VARIANT_NAMES)
        if unknown:
            raise ValueError(f"unknown variants {sorted(unknown)}")
        return cls(variants, dict(data.get("meta", {})))

    @classmethod
    def load(cls, path: str | Path) -> Rates:
        return cls.from_json(json.loads(Path(path).read_text()))

    @classmethod
    def merge(cls, parts: Sequence[Rates]) -> Rates:
        """The variants of several measurements (one process per variant) in one; each part's
        ``meta["variants"]`` says how its variants were measured."""
        variants: dict[str, VariantRates] = {}
        meta: dict[str, Any] = {"variants": {}}
        for part in parts:
            if set(variants) & set(part.variants):
                raise ValueError(f"{sorted(set(variants) & set(part.variants))} measured twice")
            variants.update(part.variants)
            meta.update({k: v for k, v in part.meta.items() if k != "variants"})
            meta["variants"].update(part.meta.get("variants", {}))
        return cls(variants, meta)

    def save(self, path: str | Path) -> None:
        """Write the JSON file atomically (a run writes it again as it goes)."""
        target = Path(path)
        temporary = target.with_name(target.name + ".part")
        temporary.write_text(json.dumps(self.to_json(), indent=2, sort_keys=True) + "\n")
        temporary.replace(target)


# --- measuring -------------------------------------------------------------------------------

Chooser = Callable[[Position, Sequence[Outcome], random.Random], int]


def network_chooser(network: Network, variant: str, options: Options) -> Chooser:
    def choose(position: Position, outcomes: Sequence[Outcome], rng: random.Random) -> int:
        return evaluate_plays(network, variant, position, outcomes, options).best()

    return choose


def random_chooser(position: Position, outcomes: Sequence[Outcome], rng: random.Random) -> int:
    return rng.randrange(len(outcomes))


def play_game(
    variant: str,
    first: Colour,
    choose: Chooser,
    rng: random.Random,
    options: Options = DEFAULT_OPTIONS,
) -> GameResult | None:
    """One game with ``first`` moving first; its result, or None when it runs MAX_PLIES."""
    position = start_position(variant, first)
    for _ in range(MAX_PLIES):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice, options)
        chosen = outcomes[choose(position, outcomes, rng)]
        if chosen.ends_game:
            result = chosen.result
            assert result is not None
            return result
        position = chosen.position
    return None


def outcome_key(result: GameResult, first: Colour) -> str:
    """``"+m"``/``"-m"`` for a win/loss of m points by the first mover, ``"0"`` for a tie."""
    if result.winner is None:
        return "0"
    return f"{'+' if result.winner == first else '-'}{result.points}"


def measure_variant(
    variant: str,
    choose: Chooser,
    games: int,
    seed: int,
    options: Options = DEFAULT_OPTIONS,
    report: Callable[[dict[str, Any]], None] | None = None,
    every: int = 100,
) -> dict[str, Any]:
    """``games`` games with white first and ``games`` with black first, alternating: counts by
    outcome (from the first mover's view), by kind (single, mars, mother, ...), the unfinished
    games and ``games_per_first_mover``. ``report`` sees the counts so far after every
    ``every`` pairs of games (a run stopped then is the same as a shorter one)."""
    counts: dict[str, int] = {}
    kinds: dict[str, int] = {}
    by_first: dict[str, dict[str, int]] = {WHITE: {}, BLACK: {}}
    unfinished = 0

    def found(pairs: int) -> dict[str, Any]:
        return {
            "counts": dict(counts),
            "by_first": {side: dict(c) for side, c in by_first.items()},
            "kinds": dict(kinds),
            "unfinished": unfinished,
            "games_per_first_mover": pairs,
        }

    for index in range(2 * games):
        first = WHITE if index % 2 == 0 else BLACK
        rng = random.Random(f"{seed}:{variant}:{index}")
        result = play_game(variant, first, choose, rng, options)
        if result is None:
            unfinished += 1
        else:
            key = outcome_key(result, first)
            counts[key] = counts.get(key, 0) + 1
            by_first[first][key] = by_first[first].get(key, 0) + 1
            kinds[result.kind] = kinds.get(result.kind, 0) + 1
        pairs = (index + 1) // 2
        if report is not None and index % 2 == 1 and pairs % every == 0 and pairs < games:
            report(found(pairs))
    return found(games)


def load_network(folder: Path, variant: str, scratch: Path) -> Network:
    """The network of ``folder/<variant>.npz``, read from a copy in ``scratch`` (the original
    may be rewritten by a running trainer at any moment; it is never opened for writing)."""
    copy = scratch / f"{variant}.npz"
    shutil.copyfile(folder / f"{variant}.npz", copy)
    return Network.load(copy)


def measure(
    weights: Path | None,
    games: int,
    seed: int,
    variants: Sequence[str] = VARIANT_NAMES,
    options: Options = DEFAULT_OPTIONS,
    log: Callable[[str], None] | None = None,
    checkpoint: Callable[[Rates], None] | None = None,
    every: int = 100,
) -> Rates:
    """Each variant's rates, by its network from ``weights`` (or random play), ``games`` games
    per first mover; ``checkpoint`` sees the rates so far every ``every`` pairs of games."""
    measured: dict[str, VariantRates] = {}
    meta: dict[str, Any] = {
        "seed": seed,
        "options": "defaults" if options == DEFAULT_OPTIONS else options.to_json(),
        "variants": {},
    }
    networks: dict[str, Network | str] = {}
    if weights is not None:  # all copied at once: the checkpoints of one moment
        with tempfile.TemporaryDirectory(prefix="rates-") as scratch:
            for variant in variants:
                try:
                    networks[variant] = load_network(weights, variant, Path(scratch))
                except (OSError, ValueError, KeyError) as error:
                    networks[variant] = str(error)
    for variant in variants:
        info: dict[str, Any] = {"source": "random play"}
        choose: Chooser = random_chooser
        network = networks.get(variant)
        if isinstance(network, Network):
            choose = network_chooser(network, variant, options)
            info["source"] = "self-play, 0-ply"
            info["weights"] = {
                key: network.metadata.get(key)
                for key in ("games", "seed", "hidden", "commit", "time")
            }
        elif network is not None:
            info["load_error"] = network
            if log:
                log(f"{variant}: weights not loaded ({network}); random play")
        start = time.monotonic()

        def partial(
            found: dict[str, Any],
            variant: str = variant,
            info: dict[str, Any] = info,
            start: float = start,
        ) -> None:
            if checkpoint is not None:
                so_far = {**info, **found, "seconds": round(time.monotonic() - start, 1)}
                done = {**measured, variant: VariantRates.from_counts(found["counts"])}
                variants = {**meta["variants"], variant: so_far}
                checkpoint(Rates(done, {**meta, "variants": variants}))

        found = measure_variant(variant, choose, games, seed, options, partial, every)
        info.update(found, seconds=round(time.monotonic() - start, 1))
        meta["variants"][variant] = info
        measured[variant] = VariantRates.from_counts(found["counts"])
        if log:
            log(
                f"{variant}: {2 * games} games in {info['seconds']} s, "
                f"first mover wins {measured[variant].first_mover_wins:.4f}, "
                f"counts {found['counts']}"
            )
    return Rates(measured, meta)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m games.analysis.rates",
        description="Measure each variant's outcome rates (first mover's view) by self-play.",
    )
    parser.add_argument("--weights", type=Path, help="folder of <variant>.npz (omit: random)")
    parser.add_argument("--games", type=int, default=2000, help="games per first mover")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", choices=VARIANT_NAMES)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--every", type=int, default=100, help="write --out so far every N games per first mover"
    )
    parser.add_argument(
        "--merge", type=Path, nargs="+", help="merge these measured files into --out instead"
    )
    args = parser.parse_args(argv)
    if args.merge:
        Rates.merge([Rates.load(path) for path in args.merge]).save(args.out)
        return
    rates = measure(
        args.weights,
        args.games,
        args.seed,
        args.variant or VARIANT_NAMES,
        log=lambda line: print(line, file=sys.stderr, flush=True),
        checkpoint=lambda partial: partial.save(args.out),
        every=args.every,
    )
    rates.save(args.out)


if __name__ == "__main__":
    main()
