"""The review's average error (docs/analysis.md "After the game") of known players, for reading
the rating bands of the match page by (docs/decisions.md D169).

Each player plays ``--games`` Tabla games against itself (dice and the first mover from a
generator seeded by ``(seed, player, game)``); every play of each game is then judged as the
site judges a finished match, at 0-ply or with ``--depth 1`` at 1-ply
(games.analysis.review.review_plays, with the committed network and, as on the site, the exact
bear-off tables of the weights folder), and the error of
every decision with a choice is averaged; the same decisions are judged by GNU Backgammon's
cubeless 0-ply evaluation too (the reference its rating bands are read on). Prints, per player,
the decisions judged, the network's average error per decision in cubeless points with its 95 %
interval (a bootstrap over the games), the 10th, 50th and 90th percentile of a game's average,
and gnubg's average error of the same decisions.

The players: ``gnubg`` (GNU Backgammon's cubeless 0-ply choice; the dev extra's package, GPL:
only benchmarks and tests import it), the same with the noise gnubg's own playing levels add
(``gnubg-advanced`` 0.015, ``gnubg-intermediate`` 0.04, ``gnubg-beginner`` 0.06), ``network``
(the committed network's 0-ply choice), ``pubeval`` and ``heuristic``
(games/analysis/opponents.py), ``random``, and the practice computers of the site
(games.analysis.computer, docs/decisions.md D170): ``computer-strong`` (the network's best play one
roll ahead), ``computer-club`` and ``computer-beginner`` (a play drawn by softmax of the 0-ply
equities at their temperatures, games.analysis.player.TEMPERATURES). How far the network
judges GNU Backgammon's own plays from its best is the floor a very strong player's average
stands on.

    .venv/bin/python bench/review_bands.py [--weights weights/] [--games 40] [--seed 7]
        [--players gnubg,gnubg-advanced,gnubg-intermediate,gnubg-beginner,network,pubeval,...]

Each player's row ends with its band by our judge (games.analysis.review.BANDS, the page's) and
by GNU Backgammon's own thresholds on its average (``GNUBG_BANDS``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from games.analysis.bearoff import RaceTables  # noqa: E402
from games.analysis.computer import computer_play  # noqa: E402
from games.analysis.net import Network  # noqa: E402
from games.analysis.opponents import choose  # noqa: E402
from games.analysis.player import TEMPERATURES, evaluate_plays  # noqa: E402
from games.analysis.review import Played, band_of, review_plays  # noqa: E402
from games.engine import (  # noqa: E402
    BLACK,
    DEFAULT_OPTIONS,
    WHITE,
    Outcome,
    legal_plays,
    start_position,
)
from games.engine.board import to_node  # noqa: E402
from games.engine.variants import find_variant  # noqa: E402

MAX_PLIES = 2000
BOOTSTRAP = 1000
NOISE = {"gnubg": 0.0, "gnubg-advanced": 0.015, "gnubg-intermediate": 0.04, "gnubg-beginner": 0.06}
COMPUTERS = {f"computer-{strength}": strength for strength in TEMPERATURES}
PLAYERS = (*NOISE, "network", "pubeval", "heuristic", "random", *COMPUTERS)
# GNU Backgammon's bands: the upper bound of each, its error per unforced move in normalized
# points ("Supernatural" folded into World class, "Awful!" into Beginner; D169).
GNUBG_BANDS = (
    ("world_class", 0.005),
    ("expert", 0.008),
    ("advanced", 0.012),
    ("intermediate", 0.018),
    ("casual", 0.026),
    ("beginner", float("inf")),
)


def gnubg_band(average: float) -> str:
    return next(name for name, bound in GNUBG_BANDS if average < bound)


class Gnubg:
    """GNU Backgammon's cubeless 0-ply equity of the mover after each play (its noise added for
    a playing level); the judge's is noise-free."""

    def __init__(self) -> None:
        import gnubg  # the dev extra (GPL): only the benchmarks and the tests use it

        from games.analysis.gnubg_board import gnubg_board

        self.gnubg = gnubg
        self.board = gnubg_board
        self.cube = gnubg.cube_info(1, -1, 0, 0, (0, 0), 0, 0)
        self.contexts = {
            noise: gnubg.eval_context(0, 0, 1, 0, noise) for noise in set(NOISE.values())
        }

    def values(self, mover: str, outcomes: Sequence[Outcome], noise: float = 0.0) -> list[float]:
        values = []
        for outcome in outcomes:
            result = outcome.result if outcome.ends_game else None
            if result is not None:
                won = result.winner == mover
                values.append(
                    0.0 if result.winner is None else float(result.points * (1 if won else -1))
                )
                continue
            board = self.board(outcome.position)
            p = self.gnubg.evaluate(board, self.cube, self.contexts[noise])
            values.append(-(2 * p[0] - 1 + p[1] - p[3]))  # the opponent on roll; a mars is 2
        return values


def game_of(
    player: str, rng: random.Random, gnubg: Gnubg | None, network: Network
) -> list[tuple[Played, list[Outcome], int]]:
    """One game of ``player`` against itself: every decision as played, its legal plays and
    the index of the one made."""
    variant = find_variant("tabla")
    position = start_position("tabla", rng.choice((WHITE, BLACK)))
    played = []
    for _ in range(MAX_PLIES):
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays("tabla", position, dice)
        if player in NOISE and gnubg is not None:
            index = int(np.argmax(gnubg.values(position.turn, outcomes, NOISE[player])))
        elif player == "network":
            index = evaluate_plays(network, "tabla", position, outcomes, DEFAULT_OPTIONS).best()
        elif player in COMPUTERS:
            index = computer_play(
                network,
                "tabla",
                position,
                outcomes,
                DEFAULT_OPTIONS,
                strength=COMPUTERS[player],
                depth=1,
                rng=np.random.default_rng(rng.getrandbits(64)),
            )
        else:
            index = choose(
                player, "tabla", position.turn, to_node(variant, position), outcomes, rng
            )
        outcome = outcomes[index]
        played.append((Played(position, dice, outcome.play), outcomes, index))
        if outcome.ends_game:
            break
        position = outcome.position
    return played


def gnubg_errors(gnubg: Gnubg, game: list[tuple[Played, list[Outcome], int]]) -> list[float]:
    errors = []
    for played, outcomes, index in game:
        if len(outcomes) > 1:
            values = gnubg.values(played.position.turn, outcomes)
            errors.append(max(0.0, max(values) - values[index]))
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", type=Path, default=ROOT / "weights")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", default=",".join(PLAYERS))
    parser.add_argument("--depth", type=int, default=0, help="the review's lookahead: 0 or 1 ply")
    args = parser.parse_args()
    network = Network.load(args.weights / "tabla.npz")
    network.races = RaceTables.load_from(args.weights)
    players = args.players.split(",")
    gnubg = Gnubg()
    print(f"races: {'the exact bear-off tables' if network.races else 'the network'}")
    print(f"the network judges at {args.depth}-ply")
    print(
        "player              decisions  network's average (95 %)   games p10/p50/p90     gnubg's"
        "   band (ours / gnubg's)"
    )
    for player in players:
        per_game, reference = [], []
        for number in range(args.games):
            rng = random.Random(f"review-bands:{args.seed}:{player}:{number}")
            game = game_of(player, rng, gnubg, network)
            played = [item[0] for item in game]
            errors = [
                r.error
                for r in review_plays(network, "tabla", DEFAULT_OPTIONS, played, depth=args.depth)
            ]
            per_game.append((sum(errors), len(errors)))
            reference.extend(gnubg_errors(gnubg, game))
        totals = np.array(per_game, dtype=float)
        average = totals[:, 0].sum() / totals[:, 1].sum()
        draws = np.random.default_rng(args.seed).integers(0, len(totals), (BOOTSTRAP, len(totals)))
        samples = totals[draws].sum(axis=1)
        low, high = np.percentile(samples[:, 0] / samples[:, 1], [2.5, 97.5])
        games = np.percentile(totals[:, 0] / np.maximum(totals[:, 1], 1), [10, 50, 90])
        print(
            f"{player:<19} {int(totals[:, 1].sum()):>9}  {average:.4f} ({low:.4f}-{high:.4f})"
            f"   {games[0]:.4f}/{games[1]:.4f}/{games[2]:.4f}   {np.mean(reference):.4f}"
            f"   {band_of(average, args.depth)} / {gnubg_band(float(np.mean(reference)))}",
            flush=True,
        )


if __name__ == "__main__":
    main()
