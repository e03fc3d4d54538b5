"""Small helpers shared by the engine tests: building queries and comparing answers as sets."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from games.engine import Options, Position, answer_query, check_play
from tests.engine.notation import case_text
from tests.engine.reference import canonical


def make_query(
    variant: str,
    position: dict[str, Any],
    dice: list[int] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    query: dict[str, Any] = {"variant": variant, "position": position}
    if dice is not None:
        query["dice"] = list(dice)
    if options:
        query["options"] = dict(options)
    return query


def engine_entries(query: dict[str, Any]) -> list[dict[str, Any]]:
    return answer_query(query)["plays"]


def states(entries: Iterable[dict[str, Any]]) -> set[str]:
    """The set of resulting states (position incl. pending, and result) of play entries."""
    return {canonical(entry) for entry in entries}


def checked_entry(query: dict[str, Any], moves: str | list[str]) -> dict[str, Any]:
    """The play entry ``check_play`` makes of a submitted move list (raises IllegalPlayError)."""
    outcome = check_play(
        query["variant"],
        Position.from_json(query["position"]),
        query.get("dice"),
        moves,
        Options.from_json(query.get("options")),
    )
    return outcome.to_json()


def describe(query: dict[str, Any], entries: dict[str, list[dict[str, Any]]]) -> str:
    """A readable report of several answers to one query: which states each side lists."""
    lines = ["query: " + json.dumps(query, separators=(",", ":"))]
    lines.append("board: " + case_text(query["position"]))
    keyed = {name: {canonical(e): e for e in found} for name, found in entries.items()}
    every = set().union(*(set(found) for found in keyed.values()))
    for state in sorted(every):
        owners = [name for name, found in keyed.items() if state in found]
        if len(owners) == len(keyed):
            continue
        sample = next(keyed[name][state] for name in owners)
        lines.append(
            f"  only in {'+'.join(owners)}: moves={sample['moves']} "
            f"result={sample.get('result')} state={_short_state(sample)}"
        )
    counts = ", ".join(f"{name}={len(found)}" for name, found in keyed.items())
    lines.append(f"  distinct states: {counts}")
    return "\n".join(lines)


def _short_state(entry: dict[str, Any]) -> str:
    position = entry["position"]
    extra = {k: position[k] for k in ("turn", "rolls", "pending", "pending_kind") if k in position}
    return f"{case_text(position)} {json.dumps(extra, separators=(',', ':'))}"
