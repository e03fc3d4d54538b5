"""The evaluator's network: inputs -> one sigmoid hidden layer -> three sigmoid outputs.

The outputs, for the side to move of the encoded position (games.analysis.encode): P(win),
P(win a mars) and P(lose a mars). Tapa's mother win counts as a mars (2 points), a tie as half a
win. Trained by TD(lambda) as TD-Gammon was (Tesauro 1992, 1995): after every play the network
moves its estimate of the position before towards its estimate of the position after (the
game's result at the end), each weight by its eligibility trace, a lambda-decayed sum of the
gradients of the outputs. Weights are float64 (small: 80 hidden units and 244 inputs are
~20,000 of them); saved as .npz with their provenance.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .derived import DERIVED, derived_size, with_derived

if TYPE_CHECKING:
    from .bearoff import RaceTables

Array = npt.NDArray[np.float64]
OUTPUTS = 3  # P(win), P(win mars), P(lose mars), for the side to move
FORMAT = 1  # the .npz layout; a load of another refuses


def sigmoid(values: Array) -> Array:
    """``1 / (1 + exp(-clip(values, -40, 40)))``, the same operations in place on one array."""
    result: Array = np.maximum(values, -40.0)
    np.minimum(result, 40.0, out=result)
    np.negative(result, out=result)
    np.exp(result, out=result)
    result += 1.0
    np.divide(1.0, result, out=result)
    return result


def flip(values: Array) -> Array:
    """Outputs for the side to move -> the same chances seen by the other side:
    P(win) -> 1 - P(win), and the two mars chances swap. Works on (3,) and (n, 3)."""
    result = values[..., [0, 2, 1]].copy()
    result[..., 0] = 1.0 - result[..., 0]
    return result


def equity(values: Array) -> Array:
    """Cubeless points expected by the side the outputs are for: a win 1, a mars 2."""
    result: Array = 2.0 * values[..., 0] - 1.0 + values[..., 1] - values[..., 2]
    return result


@dataclass(slots=True)
class Network:
    """``w1`` (hidden, inputs), ``b1`` (hidden), ``w2`` (3, hidden), ``b2`` (3).

    ``races``: the exact bear-off tables (games.analysis.bearoff) the evaluator answers pure
    races with instead of the network (games.analysis.player), when a caller attached them;
    never saved with the weights."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array
    metadata: dict[str, Any] = field(default_factory=dict)
    races: RaceTables | None = None

    @classmethod
    def create(cls, inputs: int, hidden: int = 80, seed: int = 0) -> Network:
        """Small random weights (uniform, +-1/sqrt(fan-in)) from ``seed``."""
        rng = np.random.default_rng(seed)
        return cls(
            w1=rng.uniform(-1, 1, (hidden, inputs)) / np.sqrt(inputs),
            b1=np.zeros(hidden),
            w2=rng.uniform(-1, 1, (OUTPUTS, hidden)) / np.sqrt(hidden),
            b2=np.zeros(OUTPUTS),
        )

    @property
    def inputs(self) -> int:
        return int(self.w1.shape[1])

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[0])

    @property
    def derived(self) -> str | None:
        """The set of inputs the network derives from its encoding (games.analysis.derived;
        the metadata's ``derived``), or None."""
        name = self.metadata.get("derived")
        return None if name is None else str(name)

    @property
    def encoded_inputs(self) -> int:
        """The length of the encoding it reads (its inputs less the derived ones)."""
        return self.inputs - derived_size(self.derived)

    def inputs_of(self, x: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.floating[Any]]:
        """Its input for the encoding ``x`` ((n, encoded_inputs) or one vector): ``x`` and the
        inputs derived from it."""
        return with_derived(self.derived, x)

    def derive(self, name: str) -> None:
        """Add the derived set ``name``'s inputs (games.analysis.derived), their weights zero, so
        that every output stays as it was until the network is trained with them."""
        if self.derived is not None:
            raise ValueError(f"the network already derives {self.derived}")
        added = derived_size(name)
        self.w1 = np.hstack([self.w1, np.zeros((self.hidden, added))])
        self.metadata["derived"] = name

    def parameters(self) -> tuple[Array, Array, Array, Array]:
        return self.w1, self.b1, self.w2, self.b2

    def forward(self, x: npt.NDArray[np.floating[Any]]) -> Array:
        """Outputs (n, 3) for encodings (n, encoded_inputs); one vector gives (3,)."""
        x = self.inputs_of(x)
        hidden = sigmoid(x @ self.w1.T + self.b1)
        return sigmoid(hidden @ self.w2.T + self.b2)

    def output_gradients(self, x: npt.NDArray[np.floating[Any]]) -> tuple[Array, Gradients]:
        """The outputs for one input vector and the gradient of EACH output by every weight:
        arrays with a leading axis of 3, the output (in ``w2`` and ``b2`` output k's gradient
        is zero but for row k)."""
        x = self.inputs_of(x)
        hidden = sigmoid(self.w1 @ x + self.b1)
        out = sigmoid(self.w2 @ hidden + self.b2)
        slope = out * (1.0 - out)  # (3,)
        back = slope[:, None] * self.w2 * (hidden * (1.0 - hidden))[None, :]  # (3, hidden)
        grads = Gradients(
            w1=back[:, :, None] * x[None, None, :],
            b1=back,
            w2=_EYE[:, :, None] * (slope[:, None] * hidden[None, :])[:, None, :],
            b2=_EYE * slope[:, None],
        )
        return out, grads

    def loss_gradient(
        self, x: npt.NDArray[np.floating[Any]], target: Array
    ) -> tuple[float, tuple[Array, Array, Array, Array]]:
        """Mean squared error over a batch (n, encoded_inputs) and its gradient by every weight."""
        x = self.inputs_of(x)
        hidden = sigmoid(x @ self.w1.T + self.b1)  # (n, hidden)
        out = sigmoid(hidden @ self.w2.T + self.b2)  # (n, 3)
        n = x.shape[0]
        error = out - target
        loss = float(np.mean(np.sum(error**2, axis=1)))
        d_out = 2.0 * error * out * (1.0 - out) / n  # (n, 3)
        d_hidden = (d_out @ self.w2) * hidden * (1.0 - hidden)  # (n, hidden)
        return loss, (d_hidden.T @ x, d_hidden.sum(axis=0), d_out.T @ hidden, d_out.sum(axis=0))

    def train_step(self, x: npt.NDArray[np.floating[Any]], target: Array, rate: float) -> float:
        """One gradient-descent step on a batch; the loss before it."""
        loss, grads = self.loss_gradient(x, target)
        for weights, grad in zip(self.parameters(), grads, strict=True):
            weights -= rate * grad
        return loss

    # --- files -------------------------------------------------------------------------------

    def save(self, path: str | Path, **metadata: Any) -> None:
        """Write the weights and ``metadata`` (merged into ``self.metadata``) to a .npz file,
        atomically: a crash while saving leaves the previous file whole."""
        self.metadata.update(metadata)
        save_npz(
            path,
            format=np.array(FORMAT),
            w1=self.w1,
            b1=self.b1,
            w2=self.w2,
            b2=self.b2,
            metadata=np.array(json.dumps(self.metadata, sort_keys=True)),
        )

    @classmethod
    def load(cls, path: str | Path) -> Network:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != FORMAT:
                raise ValueError(f"{path}: weights of format {int(data['format'])}, not {FORMAT}")
            network = cls(
                w1=data["w1"].astype(np.float64),
                b1=data["b1"].astype(np.float64),
                w2=data["w2"].astype(np.float64),
                b2=data["b2"].astype(np.float64),
                metadata=json.loads(str(data["metadata"])),
            )
        if network.derived is not None and network.derived not in DERIVED:
            raise ValueError(f"{path}: inputs derived by an unknown set {network.derived}")
        return network


@dataclass(slots=True)
class Gradients:
    """Per-output gradients (leading axis: the 3 outputs), or eligibility traces of that shape."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array

    @classmethod
    def zeros(cls, network: Network) -> Gradients:
        return cls(
            w1=np.zeros((OUTPUTS, network.hidden, network.inputs)),
            b1=np.zeros((OUTPUTS, network.hidden)),
            w2=np.zeros((OUTPUTS, OUTPUTS, network.hidden)),
            b2=np.zeros((OUTPUTS, OUTPUTS)),
        )


# The outputs seen by the other side: component k of flip(y) is SIGN[k] * y[SOURCE[k]] (+ 1 for
# P(win)), so its gradient is SIGN[k] times that of y[SOURCE[k]].
_SOURCE = np.array([0, 2, 1])
_EYE = np.eye(OUTPUTS)
_SIGN = np.array([-1.0, 1.0, 1.0])


class TDLambda:
    """TD(lambda) over one game at a time, every value seen by one fixed side (``first``).

    The network gives chances for the side to move; a position with the other side to move is
    flipped (``flip``) into the fixed side's view, and so is its gradient. Call ``start`` before
    a game, then ``step`` once a play: the position before it and the value after it (the
    network's for the next position, or the result when the game ended).
    """

    def __init__(self, network: Network, *, alpha: float = 0.1, lam: float = 0.7) -> None:
        self.network = network
        self.alpha = alpha
        self.lam = lam
        self.traces = Gradients.zeros(network)
        # Scratch for the input weights' arrays (3 x hidden x inputs, ~0.4 MB): allocated once,
        # not twice a step (an allocation that size is a fresh mmap, zeroed page by page).
        self._product = np.empty_like(self.traces.w1)
        self._change = np.empty((1, self._product[0].size))

    def start(self) -> None:
        self.traces = Gradients.zeros(self.network)

    def step(self, x: npt.NDArray[np.floating[Any]], flipped: bool, target: Array) -> Array:
        """Update towards ``target`` (3,) for the position ``x``; ``flipped`` when its side to
        move is not the fixed side. Returns the TD error (target - estimate), fixed side's view.

        The arithmetic of ``output_gradients`` and a flip of its result, operation by operation
        on the same numbers (so the same weights to the last bit, tested), without building the
        per-output gradients of the input weights: their trace is updated in place from the
        back-propagated (3, hidden) factor, flipped before it is multiplied by ``x`` (a sign
        and a row order commute with the product exactly)."""
        net = self.network
        x64 = net.inputs_of(x).astype(np.float64)
        hidden = sigmoid(net.w1 @ x64 + net.b1)
        out = sigmoid(net.w2 @ hidden + net.b2)
        slope = out * (1.0 - out)  # (3,)
        back = slope[:, None] * net.w2 * (hidden * (1.0 - hidden))[None, :]  # (3, hidden)
        g_w2 = _EYE[:, :, None] * (slope[:, None] * hidden[None, :])[:, None, :]
        g_b2 = _EYE * slope[:, None]
        if flipped:
            out = flip(out)
            sign = _SIGN
            back = back[_SOURCE] * sign[:, None]
            g_w2 = g_w2[_SOURCE] * sign[:, None, None]
            g_b2 = g_b2[_SOURCE] * sign[:, None]
        traces, lam = self.traces, self.lam
        product = self._product
        np.multiply(back[:, :, None], x64[None, None, :], out=product)
        traces.w1 *= lam
        traces.w1 += product
        traces.b1 *= lam
        traces.b1 += back
        traces.w2 *= lam
        traces.w2 += g_w2
        traces.b2 *= lam
        traces.b2 += g_b2
        error: Array = target - out
        scaled = self.alpha * error
        # np.tensordot(scaled, traces.w1, axes=1) is this very dot of a (1, 3) by a (3, n)
        change = self._change
        np.dot(scaled.reshape(1, OUTPUTS), traces.w1.reshape(OUTPUTS, -1), out=change)
        net.w1 += change.reshape(net.w1.shape)
        net.b1 += scaled @ traces.b1
        net.w2 += np.tensordot(scaled, traces.w2, axes=1)
        net.b2 += scaled @ traces.b2
        return error


def save_npz(path: str | Path, **arrays: Any) -> None:
    """Write ``arrays`` as a compressed .npz file, atomically: a crash while saving leaves the
    previous file whole (the weights here, the bear-off tables in bearoff.py)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".npz")
    try:
        with os.fdopen(handle, "wb") as stream:
            np.savez_compressed(stream, **arrays)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise
