"""TD(lambda) self-play training of one variant's network (docs/analysis.md).

    python -m games.analysis.train --variant tapa --games 200000 --seed 1 \\
        --checkpoint weights/tapa.npz

Both sides play the network's best 0-ply play (games.analysis.player); after every play the
estimate of the position before moves towards that of the position after (TD-Gammon). Game ``i``
draws its dice and starting side from its own generator seeded by ``(seed, i)``, so a run is
reproducible (the same seed and games give the same weights) and a resumed run, from the
checkpoint written every ``--every`` games, ends with the very weights of an uninterrupted one.
An existing checkpoint is resumed unless ``--fresh``; ``--games`` is the total to reach.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from games.engine.generate import legal_plays
from games.engine.options import DEFAULT_OPTIONS, Options
from games.engine.position import WHITE
from games.engine.variants import find_variant, start_position

from .encode import encode_positions, input_size
from .net import Network, TDLambda, flip
from .player import evaluate_plays

MAX_PLIES = 2000  # a Gjul Bara game can lock up; such a game is dropped unfinished


@dataclass(frozen=True, slots=True)
class Settings:
    variant: str
    seed: int = 1
    hidden: int = 80
    alpha: float = 0.1
    lam: float = 0.7

    def metadata(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seed": self.seed,
            "hidden": self.hidden,
            "alpha": self.alpha,
            "lambda": self.lam,
        }


@dataclass(slots=True)
class GameStats:
    plies: int
    finished: bool


def game_rng(seed: int, game: int) -> random.Random:
    return random.Random(f"{seed}:{game}")


def train_game(
    learner: TDLambda, variant: str, rng: random.Random, options: Options = DEFAULT_OPTIONS
) -> GameStats:
    """One self-play game with TD(lambda) updates after every play (values seen by white)."""
    network = learner.network
    learner.start()
    position = start_position(variant, rng.choice("wb"))
    x = encode_positions(variant, [position], options)[0]
    for ply in range(1, MAX_PLIES + 1):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice, options)
        evaluated = evaluate_plays(network, variant, position, outcomes, options)
        index = evaluated.best()
        mover_view = evaluated.chances[index]
        target = mover_view if position.turn == WHITE else flip(mover_view)
        learner.step(x, position.turn != WHITE, target)
        chosen = outcomes[index]
        if chosen.ends_game:
            return GameStats(ply, True)
        position = chosen.position
        x = evaluated.inputs[evaluated.rows[index]]
    return GameStats(MAX_PLIES, False)


def new_network(settings: Settings) -> Network:
    network = Network.create(input_size(settings.variant), settings.hidden, seed=settings.seed)
    network.metadata.update(settings.metadata(), games=0, seconds=0.0, plies=0, unfinished=0)
    return network


def anneal(network: Network, alpha: float) -> None:
    """Go on training ``network`` with the step size ``alpha``: the metadata's ``alphas`` keeps
    the schedule as ``[games, alpha]`` pairs (from game 0, the first run's step size), so the
    provenance says which step size trained which games (docs/analysis.md "Training")."""
    meta = network.metadata
    schedule = [list(step) for step in meta.get("alphas") or [[0, meta["alpha"]]]]
    schedule.append([int(meta.get("games", 0)), alpha])
    meta["alphas"] = schedule
    meta["alpha"] = alpha


def train(
    network: Network,
    settings: Settings,
    games: int,
    *,
    options: Options = DEFAULT_OPTIONS,
    checkpoint: Path | None = None,
    every: int = 1000,
    progress: Callable[[int, int, float], None] | None = None,
) -> Network:
    """Train ``network`` (its metadata says how many games it has had) up to ``games`` games."""
    learner = TDLambda(network, alpha=settings.alpha, lam=settings.lam)
    meta = network.metadata
    done = int(meta.get("games", 0))
    start = time.monotonic()
    seconds_before = float(meta.get("seconds", 0.0))
    commit = code_commit() if checkpoint is not None else "unknown"  # the code that trains
    while done < games:
        stats = train_game(learner, settings.variant, game_rng(settings.seed, done), options)
        done += 1
        meta["games"] = done
        meta["plies"] = int(meta.get("plies", 0)) + stats.plies
        meta["unfinished"] = int(meta.get("unfinished", 0)) + (not stats.finished)
        meta["seconds"] = seconds_before + time.monotonic() - start
        if checkpoint is not None and (done % every == 0 or done == games):
            network.save(checkpoint, time=utc_stamp(), commit=commit)
        if progress is not None:
            progress(done, games, time.monotonic() - start)
    return network


def utc_stamp() -> str:
    """Now in UTC, to the second, as the weights' provenance records it."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def code_commit() -> str:
    """The commit of the code that trained, as git says (``unknown`` outside a checkout)."""
    try:
        run = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return run.stdout.strip() or "unknown"


class ProgressBar:
    """A plain-text progress bar on stderr, redrawn at most once a second."""

    def __init__(
        self, label: str, first: int, stream: TextIO | None = None, unit: str = "games"
    ) -> None:
        self.label = label
        self.first = first  # games done before this run (a resumed checkpoint)
        self.unit = unit
        self.stream = stream or sys.stderr
        self.shown = 0.0

    def __call__(self, done: int, total: int, elapsed: float) -> None:
        if done < total and elapsed - self.shown < 1.0:
            return
        self.shown = elapsed
        rate = (done - self.first) / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else 0.0
        filled = int(30 * done / total) if total else 30
        bar = "#" * filled + "-" * (30 - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {done}/{total} {self.unit}  {rate:.2f} {self.unit}/s  "
            f"eta {int(left // 3600)}h{int(left % 3600 // 60):02d}m "
        )
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m games.analysis.train", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--variant", required=True, choices=("tabla", "gul_bara", "tapa"))
    parser.add_argument("--games", type=int, required=True, help="total games to reach")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoint", type=Path, required=True, help="the .npz to write")
    parser.add_argument("--every", type=int, default=1000, help="games between checkpoints")
    parser.add_argument("--hidden", type=int, default=80)
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    args = parser.parse_args(argv)
    variant = find_variant(args.variant).name
    settings = Settings(variant, args.seed, args.hidden, args.alpha, args.lam)
    if args.checkpoint.exists() and not args.fresh:
        network = Network.load(args.checkpoint)
        saved = {key: network.metadata.get(key) for key in settings.metadata()}
        wanted = settings.metadata()
        if {**saved, "alpha": None} != {**wanted, "alpha": None}:
            parser.error(f"{args.checkpoint} was trained with {saved}; use --fresh to restart")
        if saved["alpha"] != wanted["alpha"]:
            anneal(network, settings.alpha)  # a lower step size from here on, recorded
        print(f"resuming {args.checkpoint} at {network.metadata['games']} games", file=sys.stderr)
    else:
        network = new_network(settings)
    first = int(network.metadata["games"])
    train(
        network,
        settings,
        args.games,
        checkpoint=args.checkpoint,
        every=args.every,
        progress=ProgressBar(variant, first),
    )
    meta = network.metadata
    run_games = int(meta["games"]) - first
    print(
        f"{variant}: {meta['games']} games, {meta['plies']} plies, {meta['unfinished']} "
        f"unfinished, {meta['seconds']:.0f} s in all; this run {run_games} games",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
