"""The network: its gradients against finite differences, learning, TD(lambda), files."""

import numpy as np
import pytest

from games.analysis.net import Network, TDLambda, equity, flip


def small_network(seed=0):
    return Network.create(inputs=7, hidden=5, seed=seed)


def numerical(function, weights, eps=1e-6):
    grad = np.zeros_like(weights)
    for index in np.ndindex(weights.shape):
        keep = weights[index]
        weights[index] = keep + eps
        high = function()
        weights[index] = keep - eps
        low = function()
        weights[index] = keep
        grad[index] = (high - low) / (2 * eps)
    return grad


def test_the_loss_gradient_matches_finite_differences():
    rng = np.random.default_rng(1)
    net = small_network()
    x = rng.uniform(0, 1, (6, 7))
    target = rng.uniform(0, 1, (6, 3))
    _, grads = net.loss_gradient(x, target)
    for weights, grad in zip(net.parameters(), grads, strict=True):
        expected = numerical(lambda: net.loss_gradient(x, target)[0], weights)
        assert np.allclose(grad, expected, atol=1e-7, rtol=1e-5)


def test_each_outputs_gradient_matches_finite_differences():
    rng = np.random.default_rng(2)
    net = small_network(seed=3)
    x = rng.uniform(0, 1, 7)
    out, grads = net.output_gradients(x)
    assert np.allclose(out, net.forward(x))
    for k in range(3):
        per_output = (grads.w1[k], grads.b1[k], grads.w2[k], grads.b2[k])
        for weights, grad in zip(net.parameters(), per_output, strict=True):
            expected = numerical(lambda k=k: net.forward(x)[k], weights)
            assert np.allclose(grad, expected, atol=1e-8, rtol=1e-5)


def test_a_few_training_steps_lower_the_loss_on_a_toy_set():
    rng = np.random.default_rng(4)
    x = rng.uniform(0, 1, (64, 7))
    # a learnable rule: win when the first inputs outweigh the last ones, mars more rarely
    score = x[:, :3].sum(axis=1) - x[:, 4:].sum(axis=1)
    target = np.stack([score > 0, score > 0.8, score < -0.8], axis=1).astype(float)
    net = small_network()
    first = net.loss_gradient(x, target)[0]
    for _ in range(200):
        net.train_step(x, target, rate=2.0)
    assert net.loss_gradient(x, target)[0] < 0.6 * first


def test_flip_and_equity():
    y = np.array([0.7, 0.2, 0.05])
    assert np.allclose(flip(y), [0.3, 0.05, 0.2])
    assert np.allclose(flip(flip(y)), y)
    assert equity(y) == pytest.approx(2 * 0.7 - 1 + 0.2 - 0.05)
    assert equity(flip(y)) == pytest.approx(-equity(y))


@pytest.mark.parametrize("flipped", [False, True])
def test_td_zero_moves_the_estimate_towards_the_target(flipped):
    rng = np.random.default_rng(5)
    net = small_network()
    x = rng.uniform(0, 1, 7)
    target = np.array([0.9, 0.3, 0.0])
    seen = (lambda: flip(net.forward(x))) if flipped else (lambda: net.forward(x))
    learner = TDLambda(net, alpha=0.5, lam=0.0)
    before = np.abs(target - seen()).sum()
    error = learner.step(x, flipped, target)
    assert np.allclose(np.abs(error).sum(), before)  # the error before the update
    after = np.abs(target - seen()).sum()
    assert after < before


def test_td_lambda_traces_decay_and_accumulate_the_gradients():
    rng = np.random.default_rng(6)
    net = small_network()
    x1, x2 = rng.uniform(0, 1, (2, 7))
    learner = TDLambda(net, alpha=0.0, lam=0.5)  # alpha 0: the weights stay, the traces add up
    learner.start()
    learner.step(x1, False, np.zeros(3))
    learner.step(x2, True, np.zeros(3))
    _, g1 = net.output_gradients(x1)
    _, g2 = net.output_gradients(x2)
    flipped_w1 = g2.w1[[0, 2, 1]] * np.array([-1.0, 1.0, 1.0])[:, None, None]
    assert np.allclose(learner.traces.w1, 0.5 * g1.w1 + flipped_w1)
    flipped_w2 = g2.w2[[0, 2, 1]] * np.array([-1.0, 1.0, 1.0])[:, None, None]
    assert np.allclose(learner.traces.w2, 0.5 * g1.w2 + flipped_w2)
    learner.start()
    assert not learner.traces.w1.any()


def test_save_and_load_round_trip(tmp_path):
    net = small_network(seed=9)
    path = tmp_path / "sub" / "net.npz"
    net.save(path, games=12, seed=1, commit="abc")
    loaded = Network.load(path)
    for a, b in zip(net.parameters(), loaded.parameters(), strict=True):
        assert np.array_equal(a, b)
    assert loaded.metadata == {"games": 12, "seed": 1, "commit": "abc"}
    assert list(tmp_path.joinpath("sub").iterdir()) == [path]  # no temporary file left
    x = np.random.default_rng(0).uniform(0, 1, (3, 7))
    assert np.array_equal(net.forward(x), loaded.forward(x))
