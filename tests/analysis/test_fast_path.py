"""The fast path changes no number: vectors, chosen plays and trained weights are those of the
way it replaced (docs/decisions.md D126).

The reference below is the code as it was before (commit 039815b): every play's Position built
and turned into the next mover's node (``to_node``), the encoding worked out per point, the
TD(lambda) step from the per-output gradients of ``output_gradients`` flipped as arrays, the
sigmoid with ``np.clip``. Networks trained with it are resumed with the fast path, so equality
is exact (``np.array_equal``), not approximate.
"""

import random

import numpy as np
import numpy.typing as npt
import pytest

from games.analysis.encode import (
    _gul_bara_features,
    _opponent_order,
    encode_outcomes,
    encode_positions,
    half_size,
    input_size,
    tail_size,
)
from games.analysis.net import _EYE, _SIGN, _SOURCE, Gradients, Network, TDLambda, equity, flip
from games.analysis.player import evaluate_plays, result_chances
from games.analysis.train import MAX_PLIES, Settings, game_rng, new_network, train
from games.engine import DEFAULT_OPTIONS, WHITE, legal_plays, start_position
from games.engine.board import OPP_BAR, OWN_BAR, OWN_OFF, PIN, ZERO, to_node
from games.engine.variants import find_variant

from .helpers import sample_positions

VARIANTS = ["tabla", "gul_bara", "tapa"]

# --- the reference: the code before the fast path ---------------------------------------------


def _ref_half(variant, codes, off, extra):
    n = codes.shape[0]
    out = np.zeros((n, half_size(variant)), dtype=np.float32)
    free = np.where((codes > 0) & (codes < PIN), codes, 0) + np.where(codes > PIN, codes - PIN, 0)
    counts = out[:, :96].reshape(n, 24, 4)
    counts[:, :, 0] = free >= 1
    counts[:, :, 1] = free >= 2
    counts[:, :, 2] = free >= 3
    counts[:, :, 3] = np.maximum(free - 3, 0) / 4.0
    out[:, 96] = off / 15.0
    rest = out[:, 97:]
    if variant == "tapa":
        rest[:, :24] = codes < -PIN
        rest[:, 24] = codes[:, 23] == 1
    else:
        rest[:, :] = extra
    return out


def _ref_on_board(codes):
    free = np.where((codes > 0) & (codes < PIN), codes, 0) + np.where(codes > PIN, codes - PIN, 0)
    return (free.sum(axis=1) + (codes < -PIN).sum(axis=1)).astype(np.int16)


def _ref_encode_nodes(name, nodes, extras=None, tails=None):
    n = len(nodes)
    raw = np.frombuffer(b"".join(node[:27] for node in nodes), dtype=np.uint8).reshape(n, 27)
    raw16 = raw.astype(np.int16)
    mine = raw16[:, 1:25] - ZERO
    theirs = -mine[:, _opponent_order(name)]
    half = half_size(name)
    out = np.zeros((n, input_size(name)), dtype=np.float32)
    side_extra = np.zeros((n, 2), dtype=np.float32)
    if name == "tabla":
        side_extra[:, 0] = raw16[:, OWN_BAR] / 2.0
        side_extra[:, 1] = raw16[:, OPP_BAR] / 2.0
    elif extras is not None:
        side_extra[:, :] = extras
    their_off = 15 - _ref_on_board(theirs) - raw16[:, OPP_BAR]
    out[:, :half] = _ref_half(name, mine, raw16[:, OWN_OFF], side_extra[:, :1])
    out[:, half : 2 * half] = _ref_half(name, theirs, their_off.astype(np.int16), side_extra[:, 1:])
    if tails is not None and tail_size(name):
        out[:, 2 * half :] = tails
    return out


def _ref_encode_positions(name, positions):
    found = find_variant(name)
    nodes = [to_node(found, position) for position in positions]
    if name != "gul_bara":
        return _ref_encode_nodes(name, nodes)
    features = [_gul_bara_features(position, DEFAULT_OPTIONS) for position in positions]
    extras = np.array([flags for flags, _ in features], dtype=np.float32).reshape(-1, 2)
    tails = np.array([tail for _, tail in features], dtype=np.float32).reshape(-1, 8)
    return _ref_encode_nodes(name, nodes, extras, tails)


def _ref_sigmoid(values):
    return 1.0 / (1.0 + np.exp(-np.clip(values, -40.0, 40.0)))


def _ref_forward(network, x):
    hidden = _ref_sigmoid(x @ network.w1.T + network.b1)
    return _ref_sigmoid(hidden @ network.w2.T + network.b2)


def _ref_evaluate(network, name, position, outcomes):
    """(chances (n, 3), inputs, rows) the old way: a Position after every play."""
    mover = position.turn
    chances = np.empty((len(outcomes), 3))
    rows, after = [], []
    for index, outcome in enumerate(outcomes):
        if outcome.ends_game:
            chances[index] = result_chances(outcome.result, mover)
            rows.append(-1)
        else:
            rows.append(len(after))
            after.append(outcome.position)
    inputs = _ref_encode_positions(name, after)
    if after:
        outputs = _ref_forward(network, inputs)
        same = np.array([p.turn == mover for p in after])
        live = [index for index, row in enumerate(rows) if row >= 0]
        chances[live] = np.where(same[:, None], outputs, flip(outputs))
    return chances, inputs, rows


def _ref_output_gradients(network, x):
    hidden = _ref_sigmoid(network.w1 @ x + network.b1)
    out = _ref_sigmoid(network.w2 @ hidden + network.b2)
    slope = out * (1.0 - out)
    back = slope[:, None] * network.w2 * (hidden * (1.0 - hidden))[None, :]
    grads = Gradients(
        w1=back[:, :, None] * x[None, None, :],
        b1=back,
        w2=_EYE[:, :, None] * (slope[:, None] * hidden[None, :])[:, None, :],
        b2=_EYE * slope[:, None],
    )
    return out, grads


def _ref_step(network, traces, alpha, lam, x, flipped, target):
    out, grads = _ref_output_gradients(network, x.astype(np.float64))
    if flipped:
        out = flip(out)
        grads = Gradients(
            w1=grads.w1[_SOURCE] * _SIGN[:, None, None],
            b1=grads.b1[_SOURCE] * _SIGN[:, None],
            w2=grads.w2[_SOURCE] * _SIGN[:, None, None],
            b2=grads.b2[_SOURCE] * _SIGN[:, None],
        )
    for name in ("w1", "b1", "w2", "b2"):
        trace = getattr(traces, name)
        trace *= lam
        trace += getattr(grads, name)
    scaled = alpha * (target - out)
    network.w1 += np.tensordot(scaled, traces.w1, axes=1)
    network.b1 += scaled @ traces.b1
    network.w2 += np.tensordot(scaled, traces.w2, axes=1)
    network.b2 += scaled @ traces.b2


def _ref_train(network, settings, games):
    for game in range(games):
        rng = game_rng(settings.seed, game)
        traces = Gradients.zeros(network)
        name = settings.variant
        position = start_position(name, rng.choice("wb"))
        x = _ref_encode_positions(name, [position])[0]
        for _ in range(MAX_PLIES):
            dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
            outcomes = legal_plays(name, position, dice)
            chances, inputs, rows = _ref_evaluate(network, name, position, outcomes)
            index = int(np.argmax(equity(chances)))
            target = chances[index] if position.turn == WHITE else flip(chances[index])
            _ref_step(
                network, traces, settings.alpha, settings.lam, x, position.turn != WHITE, target
            )
            if outcomes[index].ends_game:
                break
            position = outcomes[index].position
            x = inputs[rows[index]]
    return network


# --- the tests ---------------------------------------------------------------------------------


def _same(a: npt.NDArray[np.generic], b: npt.NDArray[np.generic]) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_fast_path_gives_the_old_vectors_and_plays(variant):
    rng = random.Random(f"fast:{variant}")
    network = Network.create(input_size(variant), 80, seed=5)
    network.w1 *= 8.0  # spread the outputs: equities far apart and close alike
    positions = sample_positions(variant, 200, seed=9)
    assert _same(encode_positions(variant, positions), _ref_encode_positions(variant, positions))
    plays = turned = 0
    for position in positions:
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice)
        live = [outcome for outcome in outcomes if not outcome.ends_game]
        vectors, same = encode_outcomes(variant, position.turn, live)
        after = [outcome.position for outcome in live]
        assert _same(vectors, _ref_encode_positions(variant, after))
        assert list(same) == [p.turn == position.turn for p in after]
        evaluated = evaluate_plays(network, variant, position, outcomes, DEFAULT_OPTIONS)
        chances, inputs, rows = _ref_evaluate(network, variant, position, outcomes)
        assert _same(evaluated.chances, chances) and _same(evaluated.inputs, inputs)
        assert evaluated.rows == rows
        assert evaluated.best() == int(np.argmax(equity(chances)))
        plays += len(live)
        turned += int(same.sum())
    assert plays > 2000
    if variant == "gul_bara":
        assert 0 < turned < plays  # both a mover that moves again and one that hands over


def test_a_node_and_its_header_rebuild_the_position():
    """Outcome.node and Outcome.after hold the whole position after the play."""
    rng = random.Random(3)
    for variant in VARIANTS:
        found = find_variant(variant)
        for position in sample_positions(variant, 60, seed=4):
            dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
            for outcome in legal_plays(variant, position, dice):
                after, header = outcome.position, outcome.after
                assert (header.turn, header.off, header.rolls) == (
                    after.turn,
                    after.off,
                    after.rolls,
                )
                assert (header.pending, header.pending_kind) == (after.pending, after.pending_kind)
                assert len(outcome.node) == 27
                assert outcome.node == to_node(found, after.with_turn(position.turn))[:27]


@pytest.mark.parametrize("variant", VARIANTS)
def test_training_gives_the_old_weights(variant):
    settings = Settings(variant, seed=7, hidden=40)
    fast = train(new_network(settings), settings, 2)
    old = _ref_train(new_network(settings), settings, 2)
    for a, b in zip(fast.parameters(), old.parameters(), strict=True):
        assert _same(a, b)
    assert fast.metadata["plies"] > 60


def test_the_td_step_gives_the_old_weights_and_traces():
    network = Network.create(30, 12, seed=2)
    twin = Network.create(30, 12, seed=2)
    learner = TDLambda(network, alpha=0.3, lam=0.6)
    traces = Gradients.zeros(twin)
    rng = np.random.default_rng(4)
    for flipped in (False, True, True, False, True):
        x = rng.random(30).astype(np.float32)
        target = rng.random(3)
        learner.step(x, flipped, target)
        _ref_step(twin, traces, 0.3, 0.6, x, flipped, target)
    for a, b in zip(network.parameters(), twin.parameters(), strict=True):
        assert _same(a, b)
    for name in ("w1", "b1", "w2", "b2"):
        assert _same(getattr(learner.traces, name), getattr(traces, name))
