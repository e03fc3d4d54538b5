"""A small line chart (e.g. a player's rating history) as SVG geometry, drawn server-side.

Pure Python, no Django: values in, coordinates and axis labels out; the template draws them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

WIDTH = 640
HEIGHT = 240
LEFT = 52
RIGHT = 16
TOP = 14
BOTTOM = 30


def line_chart(values: Sequence[float], labels: Sequence[str] = ()) -> dict[str, Any]:
    """Chart geometry for ``values`` in order (one x step per value); ``labels`` name the x steps.

    >>> chart = line_chart([1500, 1520, 1490])
    >>> len(chart["dots"]), chart["y_ticks"][0]["label"]
    (3, '1480')
    """
    if not values:
        return {"width": WIDTH, "height": HEIGHT, "dots": [], "polyline": "", "y_ticks": []}
    low, high = _range(min(values), max(values))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(len(values) - 1, 1)

    def y_of(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    dots = []
    for i, value in enumerate(values):
        x = round(LEFT + (i * step if len(values) > 1 else plot_w / 2), 1)
        label = labels[i] if i < len(labels) else ""
        dots.append({"x": x, "y": y_of(value), "value": round(value), "label": label})
    ticks = [{"y": y_of(v), "label": f"{v:.0f}"} for v in _ticks(low, high)]
    every = max(1, math.ceil(len(dots) / 6))
    x_labels = [dot for i, dot in enumerate(dots) if i % every == 0 and dot["label"]]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": HEIGHT - BOTTOM,
        "x_label_y": HEIGHT - 10,
        "dots": dots,
        "polyline": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "y_ticks": ticks,
        "x_labels": x_labels,
    }


def _range(low: float, high: float) -> tuple[float, float]:
    """Round the value range outwards to tens, with some room when all values are equal."""
    low, high = math.floor(low / 10) * 10 - 10, math.ceil(high / 10) * 10 + 10
    return float(low), float(high)


def _ticks(low: float, high: float) -> list[float]:
    step = max(10.0, math.ceil((high - low) / 4 / 10) * 10)
    ticks, value = [], low
    while value <= high:
        ticks.append(value)
        value += step
    return ticks
