"""Refinement: a trained network fitted to rollouts of its own play (docs/analysis.md
"Refinement"; docs/decisions.md D159).

TD(lambda) self-play (games.analysis.train) leaves a network whose estimate of a position can be
far from what its own play then does from there: in the 30 contact positions where Tabla's
network was farthest from GNU Backgammon, 300 games of the network against itself from each
position came out 12.9 points of P(win) from the network's estimate on average, and 4.5 from
gnubg's. A rollout is a better teacher than the network's own next estimate, so (as GNU
Backgammon trains its networks on rollouts) this fits the network to them:

    python -m games.analysis.refine collect --variant tabla --weights weights/tabla.npz \\
        --positions 12000 --rollouts 32 --seed 1 --data /work/weights/tabla-rollouts.npz
    python -m games.analysis.refine fit --weights weights/tabla.npz \\
        --data /work/weights/tabla-rollouts.npz --epochs 30 --out weights/tabla.npz

``collect``: game ``i`` of the network against itself (0-ply, the exact bear-off tables of the
weights' folder answering the home races when they are there, D147) draws its dice and starting
side from a generator seeded by ``(seed, i)``; every ``--every``-th position with a side to
move (from a random offset) that the tables do not answer is kept, and from each kept position
``--rollouts`` games are played on by the network against itself, with dice from the same
generator, to the end or to a race the tables answer. The position's target is the mean of those
games' results for its side to move (P(win), P(win a mars), P(lose a mars); a race reached is
counted by its exact chances). The file (``--data``) holds the encodings, the targets and where
the collection stands, written atomically every ``--save`` positions; a second call with a
larger ``--positions`` goes on from there (the same arguments give the same data, in one call
or several, and with any ``--workers``).

``fit``: the network is trained on the data by Adam (batch 128, ``--rate``), 90 % of the
positions, for ``--epochs`` passes; each pass prints the mean squared error on the other 10 %
(held out, chosen by ``--seed``), and the pass with the lowest is the one kept. The weights are
saved with the refinement's provenance in their metadata (``refined``: the data's positions,
rollouts, seed and TD games, the passes, the rate, the held-out error before and after, the pass
kept, the time and the commit).

Pure Python and numpy, no Django, as the rest of games.analysis.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from games.engine.generate import Outcome, legal_plays
from games.engine.options import DEFAULT_OPTIONS, Options
from games.engine.position import BLACK, WHITE, Position
from games.engine.variants import find_variant, start_position

from .bearoff import RaceTables
from .derived import DERIVED
from .encode import encode_positions, input_size
from .net import Array, Network, flip, save_npz
from .player import evaluate_plays, position_chances, result_chances
from .ply import reply_chances
from .train import ProgressBar, code_commit, utc_stamp

Matrix = npt.NDArray[np.float32]
MAX_PLIES = 2000  # a game (or a rollout) longer than this is dropped, as in training
DATA_FORMAT = 1
BATCH = 128
HELD_OUT = 0.1


# --- collecting ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Collect:
    """What one collection is: the same settings give the same data."""

    variant: str
    seed: int = 1
    rollouts: int = 32
    every: int = 4
    teacher: str = "rollouts"

    def metadata(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seed": self.seed,
            "rollouts": self.rollouts,
            "every": self.every,
            "teacher": self.teacher,
        }


def game_rng(seed: int, game: int) -> random.Random:
    return random.Random(f"refine:{seed}:{game}")


def _best(network: Network, variant: str, position: Position, rng: random.Random) -> Outcome:
    """The network's 0-ply play for a roll of ``rng`` (the dice owed, when some are)."""
    dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
    outcomes = legal_plays(variant, position, dice, DEFAULT_OPTIONS)
    return outcomes[evaluate_plays(network, variant, position, outcomes, DEFAULT_OPTIONS).best()]


def self_play(network: Network, variant: str, rng: random.Random) -> list[Position]:
    """The positions with a side to move of one game of the network against itself, from the
    start to the last play; [] for a game longer than MAX_PLIES."""
    position = start_position(variant, rng.choice((WHITE, BLACK)))
    met: list[Position] = []
    for _ in range(MAX_PLIES):
        met.append(position)
        outcome = _best(network, variant, position, rng)
        if outcome.ends_game:
            return met
        position = outcome.position
    return []


def _exact(network: Network, variant: str, position: Position, options: Options) -> Array | None:
    races = network.races
    return None if races is None else races.position_chances(variant, position, options)


def rollout(
    network: Network, variant: str, position: Position, rng: random.Random, options: Options
) -> Array | None:
    """One game played on from ``position`` by the network against itself: its result (or
    the exact chances of the race it reaches) for ``position``'s side to move; None when it
    passes MAX_PLIES."""
    side = position.turn
    for _ in range(MAX_PLIES):
        outcome = _best(network, variant, position, rng)
        if outcome.result is not None:
            return result_chances(outcome.result, side)
        position = outcome.position
        exact = _exact(network, variant, position, options)
        if exact is not None:
            return exact if position.turn == side else flip(exact)
    return None


def targets_of(
    network: Network,
    variant: str,
    positions: Sequence[Position],
    rollouts: int,
    rng: random.Random,
    options: Options = DEFAULT_OPTIONS,
) -> Array:
    """(n, 3): each position's mean result over ``rollouts`` games played on from it
    (``rollout``; a game past MAX_PLIES is left out of its mean, and a position with none
    finished gets the network's own estimate)."""
    values = np.empty((len(positions), 3))
    for row, position in enumerate(positions):
        results = [rollout(network, variant, position, rng, options) for _ in range(rollouts)]
        finished = [value for value in results if value is not None]
        if finished:
            values[row] = np.mean(finished, axis=0)
        else:
            values[row] = position_chances(network, variant, [position], options)[0]
    return values


def lookahead_targets(
    network: Network,
    variant: str,
    positions: Sequence[Position],
    options: Options = DEFAULT_OPTIONS,
) -> Array:
    """(n, 3): each position's 1-ply value for its side to move (``ply.reply_chances``: the best
    0-ply play of each roll, averaged over the 21 rolls)."""
    values = np.empty((len(positions), 3))
    for row, position in enumerate(positions):
        values[row] = reply_chances(network, variant, position, options)
    return values


def collect_game(network: Network, settings: Collect, game: int) -> tuple[Matrix, Array]:
    """The encodings and targets of game ``game``'s kept positions (module docstring)."""
    rng = game_rng(settings.seed, game)
    met = self_play(network, settings.variant, rng)
    kept = [
        position
        for position in met[rng.randrange(settings.every) :: settings.every]
        if _exact(network, settings.variant, position, DEFAULT_OPTIONS) is None
    ]
    inputs = encode_positions(settings.variant, kept, DEFAULT_OPTIONS)
    if settings.teacher == "ply1":
        return inputs, lookahead_targets(network, settings.variant, kept)
    return inputs, targets_of(network, settings.variant, kept, settings.rollouts, rng)


@dataclass(slots=True)
class Data:
    """A collection: ``x`` (n, inputs) float32, ``y`` (n, 3), ``games`` played so far (the
    next game's index), and its settings with the weights it was collected with."""

    x: Matrix
    y: Array
    games: int
    metadata: dict[str, Any]

    def save(self, path: str | Path) -> None:
        save_npz(
            path,
            format=np.array(DATA_FORMAT),
            x=self.x,
            y=self.y,
            games=np.array(self.games),
            metadata=np.array(json.dumps(self.metadata, sort_keys=True)),
        )

    @classmethod
    def load(cls, path: str | Path) -> Data:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != DATA_FORMAT:
                raise ValueError(f"{path}: data of format {int(data['format'])}")
            return cls(
                x=data["x"].astype(np.float32),
                y=data["y"].astype(np.float64),
                games=int(data["games"]),
                metadata=json.loads(str(data["metadata"])),
            )


def weights_digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


_worker: tuple[Network, Collect] | None = None


def _start_worker(weights: str, tables: str | None, settings: Collect) -> None:
    global _worker
    network = Network.load(weights)
    network.races = RaceTables.load_from(tables) if tables else None
    _worker = (network, settings)


def _work(game: int) -> tuple[int, Matrix, Array]:
    assert _worker is not None
    network, settings = _worker
    return (game, *collect_game(network, settings, game))


def collect(
    weights: Path,
    settings: Collect,
    positions: int,
    data_path: Path,
    *,
    tables: Path | None = None,
    workers: int = 1,
    save_every: int = 500,
    progress: ProgressBar | None = None,
) -> Data:
    """Collect until the file holds at least ``positions`` positions (module docstring): the
    games in order, ``workers`` processes playing them, the file written every
    ``save_every`` positions and at the end."""
    network = Network.load(weights)
    network.races = RaceTables.load_from(tables) if tables else None
    wanted = {
        **settings.metadata(),
        "weights": weights_digest(weights),
        "trained_games": network.metadata.get("games"),
        "tables": network.races.version if network.races else None,
    }
    if data_path.exists():
        data = Data.load(data_path)
        if {"teacher": "rollouts", **data.metadata.get("settings", {})} != wanted:
            raise ValueError(
                f"{data_path} was collected with {data.metadata.get('settings')}, not {wanted}"
            )
    else:
        empty_x = np.zeros((0, input_size(settings.variant)), dtype=np.float32)
        data = Data(empty_x, np.zeros((0, 3)), 0, {"settings": wanted, "seconds": 0.0})
    xs, ys = [data.x], [data.y]
    have = len(data.x)
    if progress is not None:
        progress.first = have  # the rate counts this run's positions only
    start = time.monotonic()
    seconds = float(data.metadata.get("seconds", 0.0))
    last_save = have

    def finish() -> Data:
        data.x, data.y = np.concatenate(xs), np.concatenate(ys)
        xs[:], ys[:] = [data.x], [data.y]
        data.metadata.update(
            seconds=seconds + time.monotonic() - start, saved=utc_stamp(), commit=code_commit()
        )
        data.save(data_path)
        return data

    def results() -> Iterator[tuple[int, Matrix, Array]]:
        game = data.games
        if workers <= 1:
            while True:
                yield (game, *collect_game(network, settings, game))
                game += 1
        with ProcessPoolExecutor(
            workers,
            initializer=_start_worker,
            initargs=(str(weights), str(tables) if tables else None, settings),
        ) as pool:
            while True:  # in order, a batch of games at a time (the same data whatever workers)
                batch = range(game, game + 4 * workers)
                yield from pool.map(_work, batch)
                game += len(batch)

    if have < positions:
        for game, x, y in results():
            xs.append(x)
            ys.append(y)
            have += len(x)
            data.games = game + 1
            if progress is not None:
                progress(min(have, positions), positions, time.monotonic() - start)
            if have >= positions:
                break
            if have - last_save >= save_every:
                finish()
                last_save = have
    return finish()


# --- fitting ---------------------------------------------------------------------------------


class Adam:
    """Adam (Kingma and Ba 2015) over a network's four weight arrays, in place."""

    def __init__(self, network: Network, rate: float) -> None:
        self.network = network
        self.rate = rate
        self.steps = 0
        self.first = [np.zeros_like(p) for p in network.parameters()]
        self.second = [np.zeros_like(p) for p in network.parameters()]

    def step(self, grads: Sequence[Array]) -> None:
        self.steps += 1
        beta1, beta2 = 0.9, 0.999
        scale1 = 1.0 - beta1**self.steps
        scale2 = 1.0 - beta2**self.steps
        params = self.network.parameters()
        for weights, grad, m, v in zip(params, grads, self.first, self.second, strict=True):
            m *= beta1
            m += (1.0 - beta1) * grad
            v *= beta2
            v += (1.0 - beta2) * grad * grad
            weights -= self.rate * (m / scale1) / (np.sqrt(v / scale2) + 1e-8)


def held_out_error(network: Network, x: npt.NDArray[np.floating[Any]], y: Array) -> float:
    """Mean over positions of the squared error summed over the three outputs."""
    return float(np.mean(np.sum((network.forward(x) - y) ** 2, axis=1)))


def split(n: int, seed: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The training rows and the held-out rows (``HELD_OUT`` of them, at least one)."""
    order = np.random.default_rng(seed).permutation(n)
    held = max(1, int(n * HELD_OUT)) if n > 1 else 0
    return order[held:], order[:held]


def fit(
    network: Network,
    data: Data,
    *,
    epochs: int,
    rate: float,
    seed: int = 1,
    report: Any = None,
) -> list[float]:
    """Train ``network`` on ``data`` (module docstring); the held-out error before and after
    each pass, ``epochs + 1`` figures. ``report(epoch, error)`` hears each. The network is left
    with the weights of the pass whose held-out error was lowest (the start if none was lower)."""
    train_rows, held = split(len(data.x), seed)
    x = data.x.astype(np.float64)
    held_x, held_y = x[held], data.y[held]
    errors = [held_out_error(network, held_x, held_y)]
    if report is not None:
        report(0, errors[0])
    rng = np.random.default_rng(seed + 1)
    adam = Adam(network, rate)
    best = [p.copy() for p in network.parameters()]
    for epoch in range(1, epochs + 1):
        order = rng.permutation(train_rows)
        for start in range(0, len(order), BATCH):
            rows = order[start : start + BATCH]
            _, grads = network.loss_gradient(x[rows], data.y[rows])
            adam.step(grads)
        errors.append(held_out_error(network, held_x, held_y))
        if errors[-1] < min(errors[:-1]):
            best = [p.copy() for p in network.parameters()]
        if report is not None:
            report(epoch, errors[-1])
    for weights, kept in zip(network.parameters(), best, strict=True):
        weights[...] = kept
    return errors


# --- the command -----------------------------------------------------------------------------


def set_provenance(data: Data) -> dict[str, Any]:
    """What the fit's provenance keeps of one collected data set."""
    meta = data.metadata["settings"]
    return {
        "positions": len(data.x),
        "games": data.games,
        "teacher": meta.get("teacher", "rollouts"),
        "rollouts": meta["rollouts"],
        "every": meta["every"],
        "seed": meta["seed"],
        "weights": meta["weights"],
        "trained_games": meta["trained_games"],
        "collect_seconds": round(float(data.metadata.get("seconds", 0.0))),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.analysis.refine", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="positions and their rollouts")
    gather.add_argument("--variant", required=True, choices=("tabla", "gul_bara", "tapa"))
    gather.add_argument("--weights", type=Path, required=True, help="the network's .npz")
    gather.add_argument("--positions", type=int, required=True, help="total to reach")
    gather.add_argument(
        "--teacher",
        choices=("rollouts", "ply1"),
        default="rollouts",
        help="the targets: rollouts of the network's play, or its own 1-ply value",
    )
    gather.add_argument("--rollouts", type=int, default=32, help="games from each position")
    gather.add_argument("--every", type=int, default=4, help="keep every n-th position")
    gather.add_argument("--seed", type=int, default=1)
    gather.add_argument("--data", type=Path, required=True, help="the .npz to write")
    gather.add_argument("--tables", type=Path, help="bear-off tables (default: the weights')")
    gather.add_argument("--workers", type=int, default=1)
    gather.add_argument("--save", type=int, default=500, help="positions between saves")
    train = commands.add_parser("fit", help="fit the network to collected rollouts")
    train.add_argument("--weights", type=Path, required=True, help="the network to start from")
    train.add_argument(
        "--data", type=Path, required=True, action="append", help="collected data (repeatable)"
    )
    train.add_argument(
        "--derive",
        choices=sorted(DERIVED),
        help="add a set of derived inputs (games.analysis.derived)",
    )
    train.add_argument("--epochs", type=int, default=30)
    train.add_argument("--rate", type=float, default=3e-4)
    train.add_argument("--seed", type=int, default=1, help="the held-out rows and the order")
    train.add_argument("--out", type=Path, required=True, help="the .npz to write")
    args = parser.parse_args(argv)
    if args.command == "collect":
        variant = find_variant(args.variant).name
        rollouts = args.rollouts if args.teacher == "rollouts" else 0
        settings = Collect(variant, args.seed, rollouts, args.every, args.teacher)
        tables = args.tables or args.weights.parent
        try:
            data = collect(
                args.weights,
                settings,
                args.positions,
                args.data,
                tables=tables,
                workers=args.workers,
                save_every=args.save,
                progress=ProgressBar(variant, 0, unit="positions"),
            )
        except ValueError as error:
            parser.error(str(error))
        print(
            f"{variant}: {len(data.x)} positions from {data.games} games, "
            f"{data.metadata['seconds']:.0f} s in all",
            file=sys.stderr,
        )
        return 0
    network = Network.load(args.weights)
    digest = weights_digest(args.weights)
    sets = [Data.load(path) for path in args.data]
    for path, each in zip(args.data, sets, strict=True):
        meta = each.metadata["settings"]
        # Rollouts are the collecting network's own play: only that network is fitted to them.
        # A lookahead's values are a teacher's, fitted into any network (its digest is kept).
        if meta.get("teacher", "rollouts") == "rollouts" and meta["weights"] != digest:
            parser.error(f"{path} was collected with other weights than {args.weights}")
        if (
            each.x.shape[1] != sets[0].x.shape[1]
            or meta["variant"] != sets[0].metadata["settings"]["variant"]
        ):
            parser.error(f"{path} is of another variant or encoding than {args.data[0]}")
    if args.derive:
        variant = sets[0].metadata["settings"]["variant"]
        if DERIVED[args.derive][0] != variant:
            parser.error(f"--derive {args.derive} is not for {variant}")
        try:
            network.derive(args.derive)
        except ValueError as error:
            parser.error(str(error))
    data = Data(
        np.concatenate([each.x for each in sets]),
        np.concatenate([each.y for each in sets]),
        sum(each.games for each in sets),
        sets[0].metadata,
    )
    if network.encoded_inputs != data.x.shape[1]:
        parser.error(
            f"{args.data[0]} holds {data.x.shape[1]} inputs, the network {network.encoded_inputs}"
        )
    started = time.monotonic()
    errors = fit(
        network,
        data,
        epochs=args.epochs,
        rate=args.rate,
        seed=args.seed,
        report=lambda epoch, error: print(
            f"pass {epoch}: held-out error {error:.5f}", file=sys.stderr
        ),
    )
    network.save(
        args.out,
        refined={
            # the first set's collection (its weights as from_weights), the totals of them all
            **{k: v for k, v in set_provenance(sets[0]).items() if k != "weights"},
            "from_weights": sets[0].metadata["settings"]["weights"],
            "positions": len(data.x),
            "games": data.games,
            "epochs": args.epochs,
            "rate": args.rate,
            "fit_seed": args.seed,
            "held_out_before": round(errors[0], 6),
            "held_out_after": round(min(errors), 6),
            "best_pass": errors.index(min(errors)),
            "fit_seconds": round(time.monotonic() - started, 1),
            "derived": network.derived,
            "sets": [set_provenance(each) for each in sets],
            "saved": utc_stamp(),
            "commit": code_commit(),
        },
    )
    print(
        f"saved {args.out}: held-out error {errors[0]:.5f} -> {min(errors):.5f} "
        f"(pass {errors.index(min(errors))})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
