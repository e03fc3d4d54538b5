"""The evaluator's strength: a trained network (0-ply, or 1-ply) against an opponent, per variant.

The opponent (``--opponent``): ``random`` (uniform over the legal plays), ``pubeval``
(Tesauro's public linear evaluator, Tabla only) or ``heuristic`` (a simple player of each game);
both are described in games/analysis/opponents.py. Each game draws its dice and starting side
from a generator seeded by ``(seed, game)``; the network plays white in even games and black in
odd ones. A tie (Tapa, both mothers pinned) counts half a win. Prints the win rate with its 95 %
lower bound (Wilson score interval) and the points a game (mars 2) from the network's side; the
weights' provenance comes from the file. ``--ply 1`` makes the network look one roll ahead
(games/analysis/ply.py, the move filter's candidates against the 21 rolls, docs/decisions.md
D151) and adds the CPU time of its decisions with a choice (median and 90th percentile, ms) and
the 95 % interval of the win rate.

    .venv/bin/python bench/evaluator.py [--weights weights/] [--games 500] [--seed 7]
        [--opponent random|pubeval|heuristic] [--variant tabla] [--ply 0|1]
    .venv/bin/python bench/evaluator.py --calibration [--games 200]
    .venv/bin/python bench/evaluator.py --gnubg [--games 500] [--ply 0|1] [--races]
    .venv/bin/python bench/evaluator.py --latency [--positions 2000] [--rounds 3]

``--calibration`` plays the network against itself instead (seeded apart from training's games:
held out) and measures its P(win) of every position met against the games' results: the
expected calibration error over 10 equal-width bins, and the Brier score beside that of a
logistic model on the pip counts alone (fitted on the even games, both scored on the odd ones),
each with its 95 % interval from a bootstrap over the scored games (a game's positions share
its result, so the games, not the positions, are the independent draws; the ECE's is the basic
bootstrap interval, as noise only ever adds to an ECE).

``--gnubg`` (Tabla only; needs the dev extra's ``gnubg`` package) compares the network's
cubeless 0-ply chances with GNU Backgammon's cubeless 0-ply evaluation of the same positions:
one position drawn at random from each of ``--games`` games of the network against itself
(seeded apart from training's and calibration's), the side to move before it rolls, turned into
gnubg's board by games/analysis/gnubg_board.py (docs/decisions.md D143). Prints the mean,
median, 90th percentile and largest |difference| of P(win) in points, for all the positions and
split into contact and race, and the same of P(win a gammon) and P(lose a gammon) (gnubg's
gammons include its backgammons, as a Tabla mars does), with the mean signed difference
(network minus gnubg); then the mean |difference in P(win)| with its 95 % interval (normal
approximation), how far gnubg's own 0-ply is from its 2-ply on the same positions (a yardstick
for the figure), and both evaluations of the starting position. With ``--ply 1`` the network
looks one roll ahead (``games.analysis.ply.reply_chances``: the best 0-ply play of each of the
21 rolls, averaged), still against gnubg's 0-ply.

``--races`` attaches the exact bear-off tables found in the weights folder (``python -m
games.analysis.bearoff build``; games/analysis/bearoff.py, docs/decisions.md D147) to each
network, as the site does (games/chances.py): a pure race both sides are home in is then
answered by the tables, at 0-ply and in 1-ply's replies, in every mode (the self-play that picks
or scores the positions too). Without it the network answers every position. The first line
printed says which.

``--latency`` times what the site's chances do for a position (games/chances.py): the
network's ``forward`` of ``encode_positions`` of ONE position, encoding included, over
``--positions`` positions met in the network's self-play, ``--rounds`` times: the wall-clock
median, p99 and largest in ms, and the CPU time of the thread a position (the mean and p99 of
each call's, and the process's over the round): on a loaded machine the wall-clock tail is the
process waiting for a core, the CPU time is the work.

A variant without weights in the folder is reported as such (``make bench`` runs this too).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from games.analysis.bearoff import RaceTables  # noqa: E402
from games.analysis.encode import encode_positions  # noqa: E402
from games.analysis.gnubg_board import gnubg_board, in_contact  # noqa: E402
from games.analysis.net import Network  # noqa: E402
from games.analysis.opponents import OPPONENTS, choose, pips  # noqa: E402
from games.analysis.player import evaluate_plays, position_chances  # noqa: E402
from games.analysis.ply import reply_chances, search_plays  # noqa: E402
from games.engine import (  # noqa: E402
    BLACK,
    DEFAULT_OPTIONS,
    VARIANT_NAMES,
    WHITE,
    Position,
    find_variant,
    legal_plays,
    start_position,
)
from games.engine.board import to_node  # noqa: E402

MAX_PLIES = 2000
BOOTSTRAP = 1000  # resamples of the scored games for --calibration's intervals


def wilson_lower(wins: float, games: int, z: float = 1.96) -> float:
    """The lower end of the Wilson score interval of a win rate (95 % with z = 1.96)."""
    if games == 0:
        return 0.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games)


def wilson_upper(wins: float, games: int, z: float = 1.96) -> float:
    """The upper end of the Wilson score interval (the lower one of the losses)."""
    return 1.0 - wilson_lower(games - wins, games, z)


def play(
    network: Network,
    variant: str,
    network_side: str,
    rng: random.Random,
    opponent: str = "random",
    ply: int = 0,
    times: list[float] | None = None,
) -> float:
    """One game; the network's points (negative when it loses, 0 for a tie or an unfinished
    game). At ``ply`` 1 the network searches its plays one roll deep; ``times`` collects the
    CPU seconds of each of its decisions with a choice."""
    found = find_variant(variant)
    position = start_position(variant, rng.choice((WHITE, BLACK)))
    for _ in range(MAX_PLIES):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice)
        if position.turn == network_side:
            start = time.process_time()
            if ply == 1 and len(outcomes) > 1:
                searched = search_plays(network, variant, position, outcomes, DEFAULT_OPTIONS)
                outcome = outcomes[searched.best()]
            else:
                evaluated = evaluate_plays(network, variant, position, outcomes, DEFAULT_OPTIONS)
                outcome = outcomes[evaluated.best()]
            if times is not None and len(outcomes) > 1:
                times.append(time.process_time() - start)
        elif opponent == "random":
            outcome = rng.choice(outcomes)
        else:
            before = to_node(found, position)
            outcome = outcomes[choose(opponent, variant, position.turn, before, outcomes, rng)]
        result = outcome.result
        if result is not None:
            if result.winner is None:
                return 0.0
            return float(result.points if result.winner == network_side else -result.points)
        position = outcome.position
    return 0.0


Record = tuple[float, int, int, float]  # P(win) of the mover, its pips, the opponent's, result


def self_play(network: Network, variant: str, rng: random.Random) -> list[Record]:
    """One game of the network against itself: after every play that does not end it, the
    mover's P(win) of the position after, both pip counts, and in the end the mover's result
    (1 won, 0 lost, 0.5 a tie). An unfinished game gives nothing."""
    position = start_position(variant, rng.choice((WHITE, BLACK)))
    seen: list[tuple[str, float, int, int]] = []
    for _ in range(MAX_PLIES):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice)
        evaluated = evaluate_plays(network, variant, position, outcomes, DEFAULT_OPTIONS)
        index = evaluated.best()
        outcome = outcomes[index]
        result = outcome.result if outcome.ends_game else None
        if result is not None:
            return [
                (p, mine, theirs, 0.5 if result.winner is None else float(result.winner == side))
                for side, p, mine, theirs in seen
            ]
        mine, theirs = pips(variant, outcome.node)
        seen.append((position.turn, float(evaluated.chances[index][0]), mine, theirs))
        position = outcome.position
    return []


def calibration_error(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error: the positions' share in each of ``bins`` equal-width bins
    of P(win) times the gap between the bin's mean P(win) and its mean result."""
    which = np.minimum((p * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        mask = which == b
        if mask.any():
            total += mask.mean() * abs(float(p[mask].mean() - y[mask].mean()))
    return total


def pip_logistic(features: np.ndarray, y: np.ndarray, rounds: int = 25) -> np.ndarray:
    """Weights of a logistic model of the result (Newton's method, a little ridge)."""
    w = np.zeros(features.shape[1])
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-features @ w))
        gradient = features.T @ (p - y) + 1e-6 * w
        hessian = (features * (p * (1 - p))[:, None]).T @ features + 1e-6 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def pip_features(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    return np.column_stack([np.ones(len(mine)), (theirs - mine) / 100.0, (theirs + mine) / 100.0])


def calibration(network: Network, variant: str, games: int, seed: int) -> str:
    fit: list[Record] = []
    test: list[list[Record]] = []  # the scored games, each kept whole for the bootstrap
    for game in range(games):
        rng = random.Random(f"calibration:{seed}:{game}")
        records = self_play(network, variant, rng)
        if game % 2 == 0:
            fit.extend(records)
        elif records:
            test.append(records)
    fitted = np.array(fit, dtype=np.float64).reshape(-1, 4)
    weights = pip_logistic(pip_features(fitted[:, 1], fitted[:, 2]), fitted[:, 3])
    scored = [np.array(records, dtype=np.float64) for records in test]
    baselines = [
        1.0 / (1.0 + np.exp(-pip_features(game[:, 1], game[:, 2]) @ weights)) for game in scored
    ]

    def figures(chosen: np.ndarray) -> tuple[float, float, float, int]:
        rows = np.concatenate([scored[i] for i in chosen])
        baseline = np.concatenate([baselines[i] for i in chosen])
        p, y = rows[:, 0], rows[:, 3]
        brier = float(np.mean((p - y) ** 2))
        brier_pips = float(np.mean((baseline - y) ** 2))
        return calibration_error(p, y), brier, brier_pips, len(rows)

    ece, brier, brier_pips, positions = figures(np.arange(len(scored)))
    # The positions of one game share its result, so the sampling error is the games': a
    # bootstrap over the scored games (seeded) gives the 95 % intervals.
    resample = np.random.default_rng(seed)
    eces, betters = [], []
    for _ in range(BOOTSTRAP):
        e, b, bp, _ = figures(resample.integers(0, len(scored), len(scored)))
        eces.append(e)
        betters.append(1 - b / bp)
    # ECE is biased upwards by noise (a bin's gap is never negative), so its resamples sit
    # above it: the basic bootstrap interval (2 x the figure - the resamples' percentiles).
    ece_low, ece_high = (max(0.0, 2 * ece - q) for q in np.percentile(eces, [97.5, 2.5]))
    better_low, better_high = np.percentile(betters, [2.5, 97.5])
    return (
        f"{positions:>9} {100 * ece:>7.2f} {f'{100 * ece_low:.2f}-{100 * ece_high:.2f}':>11} "
        f"{brier:>8.4f} {brier_pips:>9.4f} {100 * (1 - brier / brier_pips):>8.1f} "
        f"{f'{100 * better_low:.1f}-{100 * better_high:.1f}':>11}"
    )


# --- GNU Backgammon's cubeless evaluation (Tabla) ---------------------------------------------


def self_play_positions(network: Network, variant: str, rng: random.Random) -> list[Position]:
    """The positions of one game of the network against itself at which a side is to move
    (before its roll; Gjul Bara's owed dice too), from the start to the last play."""
    position = start_position(variant, rng.choice((WHITE, BLACK)))
    met: list[Position] = []
    for _ in range(MAX_PLIES):
        met.append(position)
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice)
        evaluated = evaluate_plays(network, variant, position, outcomes, DEFAULT_OPTIONS)
        outcome = outcomes[evaluated.best()]
        if outcome.ends_game:
            break
        position = outcome.position
    return met


def spread(values: np.ndarray) -> str:
    """Mean, median, p90 and largest of |values| and the mean of values, in points (x 100)."""
    if len(values) == 0:
        return f"{'-':>6} {'-':>6} {'-':>6} {'-':>6} {'-':>6}"
    size = 100 * np.abs(values)
    return (
        f"{size.mean():>6.2f} {np.median(size):>6.2f} {np.percentile(size, 90):>6.2f} "
        f"{size.max():>6.2f} {100 * values.mean():>+6.2f}"
    )


def against_gnubg(network: Network, games: int, seed: int, ply: int = 0) -> list[str]:
    """The network's (at ``ply``) and gnubg's cubeless 0-ply P(win), P(win gammon) and P(lose
    gammon) of the side to move in one random position of each of ``games`` self-play games
    (module docstring); rows of the table ``main`` prints."""
    import gnubg  # the dev extra (GPL): only this benchmark and the tests use it, never the site

    # money play, cube centred (spelled out: a bare cube_info() takes a match gnubg imported)
    cube = gnubg.cube_info(1, -1, 0, 0, (0, 0), 0, 0)
    context = gnubg.eval_context(0, 0, 1, 0, 0.0)  # cubeless, 0-ply, deterministic, no noise
    picked: list[Position] = []
    for game in range(games):
        rng = random.Random(f"gnubg:{seed}:{game}")
        picked.append(rng.choice(self_play_positions(network, "tabla", rng)))
    if ply == 0:
        ours = position_chances(network, "tabla", picked, DEFAULT_OPTIONS)
    else:
        ours = np.array(
            [reply_chances(network, "tabla", position, DEFAULT_OPTIONS) for position in picked]
        )
    theirs = np.array(
        [
            (p[0], p[1], p[3])
            for p in (gnubg.evaluate(gnubg_board(position), cube, context) for position in picked)
        ]
    )
    difference = ours - theirs
    contact = np.array([in_contact(position) for position in picked])
    rows = []
    for label, mask in (
        ("all", np.ones(len(picked), bool)),
        ("contact", contact),
        ("race", ~contact),
    ):
        rows.append(
            f"{label:<8} {int(mask.sum()):>9} {spread(difference[mask, 0])}   "
            f"{spread(difference[mask, 1])}   {spread(difference[mask, 2])}"
        )
    size = 100 * np.abs(difference[:, 0])
    margin = 1.96 * float(size.std(ddof=1)) / math.sqrt(len(size)) if len(size) > 1 else 0.0
    rows.append(
        f"{'mean':<8} {len(size):>9} |difference in P(win)| {size.mean():.2f} points, 95 % "
        f"interval {size.mean() - margin:.2f}-{size.mean() + margin:.2f} (the goal: at most 3)"
    )
    # gnubg's own 0-ply against its 2-ply on the same positions: how far a strong 0-ply
    # evaluation is from a deeper one, to read the figure above by.
    deeper = gnubg.eval_context(0, 2, 1, 0, 0.0)
    own = np.array(
        [
            gnubg.evaluate(gnubg_board(position), cube, deeper)[0] - theirs[index, 0]
            for index, position in enumerate(picked)
        ]
    )
    rows.append(
        f"{'gnubg':<8} {len(own):>9} |gnubg 2-ply - gnubg 0-ply| in P(win): mean "
        f"{100 * np.abs(own).mean():.2f}, median {100 * np.median(np.abs(own)):.2f} points"
    )
    start = start_position("tabla")
    rows.append(
        f"{'start':<8} {1:>9} P(win) of the side to move: network "
        f"{network.forward(encode_positions('tabla', [start]))[0, 0]:.3f}, gnubg "
        f"{gnubg.evaluate(gnubg_board(start), cube, context)[0]:.3f}"
    )
    return rows


# --- the latency of one evaluation ------------------------------------------------------------


def latency(network: Network, variant: str, count: int, seed: int, rounds: int) -> list[str]:
    """``rounds`` rows: the wall-clock and CPU time of ``forward(encode_positions([p]))`` (the
    path of games/chances.py) for each of ``count`` self-play positions."""
    positions: list[Position] = []
    game = 0
    while len(positions) < count:
        positions.extend(
            self_play_positions(network, variant, random.Random(f"latency:{seed}:{game}"))
        )
        game += 1
    positions = positions[:count]
    rows = []
    for _ in range(rounds):
        wall = np.empty(count)
        cpu = np.empty(count)
        started = time.process_time()
        for index, position in enumerate(positions):
            cpu_start = time.thread_time()
            wall_start = time.perf_counter()
            network.forward(encode_positions(variant, [position], DEFAULT_OPTIONS))
            wall[index] = time.perf_counter() - wall_start
            cpu[index] = time.thread_time() - cpu_start
        process = (time.process_time() - started) / count
        rows.append(
            f"{count:>9} {1e3 * np.median(wall):>8.3f} {1e3 * np.percentile(wall, 99):>8.3f} "
            f"{1e3 * wall.max():>8.3f} {1e3 * cpu.mean():>8.3f} "
            f"{1e3 * np.percentile(cpu, 99):>8.3f} {1e3 * process:>8.3f}"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--weights", type=Path, default=ROOT / "weights", help="a folder of <variant>.npz"
    )
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variant", choices=VARIANT_NAMES, action="append")
    parser.add_argument("--opponent", choices=OPPONENTS, default="random")
    parser.add_argument("--calibration", action="store_true", help="self-play calibration")
    parser.add_argument(
        "--gnubg", action="store_true", help="Tabla against GNU Backgammon's 0-ply chances"
    )
    parser.add_argument("--latency", action="store_true", help="one position's evaluation time")
    parser.add_argument("--positions", type=int, default=2000, help="--latency's positions")
    parser.add_argument("--rounds", type=int, default=3, help="--latency's rounds")
    parser.add_argument("--ply", type=int, choices=(0, 1), default=0, help="the network's depth")
    parser.add_argument(
        "--races", action="store_true", help="answer home races from the exact bear-off tables"
    )
    args = parser.parse_args()
    races = RaceTables.load_from(args.weights) if args.races else None
    if args.races and races is None:
        sys.exit(f"--races: no bear-off tables in {args.weights} (games.analysis.bearoff build)")
    print(
        f"races: the exact bear-off tables of {args.weights} ({', '.join(sorted(races.tables))})"
        if races is not None
        else "races: the network (no bear-off tables attached)"
    )
    variants = args.variant or VARIANT_NAMES
    if args.gnubg or (args.opponent == "pubeval" and not args.calibration and not args.latency):
        variants = [v for v in variants if find_variant(v).name == "tabla"]
    if args.gnubg:
        try:
            import gnubg  # noqa: F401  (the dev extra, GPL: only this benchmark and the tests)
        except ImportError:
            sys.exit(
                "--gnubg needs GNU Backgammon's Python package (the dev extra: pip install gnubg)"
            )
        print(
            "|network - gnubg| in points (x 100): mean, median, p90, max, and the mean signed "
            "difference"
        )
        columns = f"{'mean':>6} {'median':>6} {'p90':>6} {'max':>6} {'signed':>6}"
        print(
            f"{'variant':<9} {'trained':>8} {'':<8} {'positions':>9} "
            f"{'P(win)':<34}   {'P(win gammon)':<34}   {'P(lose gammon)':<34}"
        )
        print(f"{'':<9} {'':>8} {'':<8} {'':>9} {columns}   {columns}   {columns}")
    elif args.latency:
        print(
            f"{'variant':<9} {'trained':>8} {'positions':>9} {'p50 ms':>8} {'p99 ms':>8} "
            f"{'max ms':>8} {'cpu ms':>8} {'cpu p99':>8} {'process':>8}"
        )
    elif args.calibration:
        print(
            f"{'variant':<9} {'trained':>8} {'games':>6} {'positions':>9} {'ECE %':>7} "
            f"{'95 %':>11} {'Brier':>8} {'pips only':>9} {'better %':>8} {'95 %':>11} {'s':>5}"
        )
    else:
        print(
            f"{'variant':<9} {'opponent':<9} {'trained':>8} {'games':>6} {'wins':>6} {'ties':>5} "
            f"{'win %':>6} {'95% low':>8} {'points/game':>12} {'s':>5}"
        )
    for variant in variants:
        path = args.weights / f"{variant}.npz"
        if not path.exists():
            print(f"{variant:<9} no weights at {path}")
            continue
        network = Network.load(path)
        network.races = races
        trained = network.metadata.get("games", "?")
        start = time.monotonic()
        if args.gnubg:
            for row in against_gnubg(network, args.games, args.seed, args.ply):
                print(f"{variant:<9} {trained:>8} {row}")
            print(f"({time.monotonic() - start:.0f} s)")
            continue
        if args.latency:
            for row in latency(network, variant, args.positions, args.seed, args.rounds):
                print(f"{variant:<9} {trained:>8} {row}")
            continue
        if args.calibration:
            row = calibration(network, variant, args.games, args.seed)
            print(
                f"{variant:<9} {trained:>8} {args.games:>6} {row} {time.monotonic() - start:>5.0f}"
            )
            continue
        wins = ties = 0
        points = 0.0
        times: list[float] = []
        for game in range(args.games):
            rng = random.Random(f"evaluator:{args.seed}:{game}")
            side = WHITE if game % 2 == 0 else BLACK
            scored = play(network, variant, side, rng, args.opponent, args.ply, times)
            points += scored
            wins += scored > 0
            ties += scored == 0
        score = wins + ties / 2
        print(
            f"{variant:<9} {args.opponent:<9} {trained:>8} {args.games:>6} {wins:>6} "
            f"{ties:>5} {100 * score / args.games:>6.1f} "
            f"{100 * wilson_lower(score, args.games):>8.1f} {points / args.games:>12.2f} "
            f"{time.monotonic() - start:>5.0f}"
        )
        if times:
            ms = np.array(times) * 1000.0
            print(
                f"{'':<9} {args.ply}-ply: win % 95% interval "
                f"{100 * wilson_lower(score, args.games):.1f}-"
                f"{100 * wilson_upper(score, args.games):.1f}; {len(ms)} decisions with a "
                f"choice, CPU ms median {np.median(ms):.1f}, p90 {np.percentile(ms, 90):.1f}, "
                f"max {ms.max():.1f}"
            )


if __name__ == "__main__":
    main()
