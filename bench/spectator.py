"""The chance on a spectator's page: how long after a move it changes, in a real browser.

Issue 23 §4: "the chance reaches a spectator's page within 1 s of the move". Starts the service
as `make run` does (one uvicorn process serving the pages, the API and the WebSockets, the
channel layer in memory; ``--redis`` uses a redis-server of its own instead, as bench/fanout.py)
on free 127.0.0.1 ports over a throw-away SQLite file (migrated first), with the networks of
``--weights`` (TABLA_WEIGHTS_DIR; the committed weights/ by default). A setup step creates two
players and an UNRATED match between them (``services.match_create(rated=False, auto_roll=True)``:
spectators of an unrated match see each move's chance at once, and the server rolls for the
next player as part of each play, so a move is one request). Debian's chromium (Playwright, as
tests/web) opens the match page as an anonymous spectator, whose "Chances" card is drawn by
static/js/chances.js: after each pushed move, match.js fetches the page's fragment and fires
``tabla:updated``, and chances.js fetches ``/api/v1/matches/{id}/chances/`` and redraws.

Then the players play ``--moves`` moves through the public API (``POST
/api/v1/games/{id}/plays/`` with a play drawn, seeded by ``--seed``, from the answer's legal
plays). For each move:

- t0: just before the play's request is sent (this process's ``time.time()``);
- answer: when the API's answer to the play has arrived;
- updated: when the page fired ``tabla:updated`` (the socket's push and the fragment's fetch);
- t1: when the chance bar's label or the graph's line changed (a MutationObserver in the page
  writes ``performance.timeOrigin + performance.now()`` into ``window``: the same machine's
  clock as ``time.time()``).

The delay is t1 - t0. Before the next move the bench waits until the page shows as many points as
the chances endpoint has (the late redraws of a move are not counted in the next one), then
``--pause`` seconds. A move whose chance has not changed within ``--timeout`` seconds is a
failure, reported, not waited for longer. Prints the weights' metadata (games, saved, hidden),
the load average, each move's figures with ``--verbose``, and count, median, p95, max of the
delay (also by spans of 50 plies of the game: a new turn used to make the server compute its
game's whole series again, so a move late in a long game cost more; since docs/decisions.md D158
it extends the cached series by the new turn) and how many were within 1 s; the
server's CPU a move (uvicorn, with the redis-server when ``--redis``; it includes the bench's own
read of the endpoint after each move, a cached answer) and the browser's. The server has a cache
of its own (CACHE_URL, in /dev/shm where there is one), and the first game's dice come from
``--seed``. Every process it started is stopped.

    .venv/bin/python bench/spectator.py [--moves 40] [--seed 1] [--weights weights] [--redis]
                                        [--pause 0.5] [--timeout 10] [--verbose]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from servers import (
    BIN,
    ROOT,
    Servers,
    children_of,
    free_port,
    manage,
    server_env,
    tree_cpu_seconds,
)

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
VARIANTS = ("tabla", "gul_bara", "tapa")
GOAL_SECONDS = 1.0  # issue 23 §4
PLY_SPAN = 50  # the summary's figures by the game's ply, in spans of this many
LOAD_SECONDS = 30.0  # the spectator's page's first load and chance

SETUP = """
import hashlib
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from games import dice, services
from players.models import Player
# The first game's dice from --seed (as the tests' seeded_dice); later games' are the server's.
dice.new_seed = lambda: hashlib.sha256(b"spectator-{seed}").hexdigest()
User = get_user_model()
organiser = User.objects.create_user(username="organiser")
players, tokens = [], {}
for name in ("Alice", "Bob"):
    user = User.objects.create_user(username=name.lower())
    player = Player.objects.create(user=user, display_name=name)
    players.append(player)
    tokens[player.pk] = Token.objects.create(user=user).key
match = services.match_create(
    creator=organiser, player_one=players[0], player_two=players[1], rated=False, auto_roll=True
)
print(json.dumps({"match": match.pk, "game": match.games.get().pk, "tokens": tokens}))
"""

# Installed in the page before its own scripts run: the time of every change of the chance bar's
# label or of the graph's line, and of every "tabla:updated" (match.js, after a pushed update).
OBSERVER = """
window.__chances = [];
window.__updated = [];
function now() { return performance.timeOrigin + performance.now(); }
document.addEventListener("tabla:updated", function () { window.__updated.push(now()); });
document.addEventListener("DOMContentLoaded", function () {
  var section = document.getElementById("chances");
  if (!section) return;
  var label = section.querySelector("[data-chance-one-label]");
  var line = section.querySelector("[data-chance-line]");
  function seen() {
    var points = line.getAttribute("points") || "";
    window.__chances.push({
      at: now(),
      label: label.textContent,
      points: points ? points.trim().split(/\\s+/).length : 0
    });
  }
  var observer = new MutationObserver(seen);
  observer.observe(label, { childList: true, characterData: true, subtree: true });
  observer.observe(line, { attributes: true, attributeFilter: ["points"] });
});
"""

CHROMIUM_ARGS = [  # as tests/web/conftest.py
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# --- processes --------------------------------------------------------------------------------


def start_servers(env: dict[str, str], redis_port: int | None, scratch: str) -> Servers:
    """uvicorn ("uvicorn") on a free port, after a redis-server on ``redis_port`` if given, once
    they listen."""
    servers = Servers()
    try:
        if redis_port is not None:
            servers.start_redis(redis_port, scratch)
        port = free_port()
        uvicorn = [
            str(BIN / "uvicorn"), "config.asgi:application", "--host=127.0.0.1",
            f"--port={port}", "--log-level=warning", "--no-access-log",
        ]  # fmt: skip
        servers.start("uvicorn", uvicorn, port=port, env=env)
        servers.wait_listening("uvicorn")
    except BaseException:
        servers.stop()
        raise
    return servers


# --- the API ----------------------------------------------------------------------------------


def api(
    port: int, method: str, path: str, token: str | None = None, body: dict[str, Any] | None = None
) -> Any:
    headers = {"Accept": "application/json", "Connection": "close"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None
    if body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        payload = response.read()
    finally:
        connection.close()
    if response.status not in (200, 201):
        raise RuntimeError(f"{method} {path}: {response.status} {payload[:300]!r}")
    return json.loads(payload)


# --- the measurement --------------------------------------------------------------------------


@dataclass
class Move:
    ply: int
    game: int
    answer: float  # seconds from t0
    updated: float | None = None
    shown: float | None = None  # t1 - t0, None: not within the timeout
    label: str = ""


def weights_summary(weights: Path) -> list[str]:
    import numpy as np

    lines = []
    for variant in VARIANTS:
        path = weights / f"{variant}.npz"
        if not path.exists():
            lines.append(f"  {variant}: missing (no chances for this game)")
            continue
        with np.load(path) as data:
            meta = json.loads(str(data["metadata"])) if "metadata" in data else {}
        lines.append(
            f"  {variant}: {meta.get('games', '?'):,} games, saved {meta.get('time', '?')}, "
            f"hidden {meta.get('hidden', '?')}, commit {str(meta.get('commit', '?'))[:7]}"
        )
    tables = sorted(path.name for path in weights.glob("bearoff-*.npz"))
    lines.append(f"  bear-off tables: {', '.join(tables) or 'none'}")
    return lines


def wait_points(page: Any, expected: int, timeout: float) -> bool:
    """Until the page's graph has ``expected`` points (the endpoint's count), bounded."""
    try:
        page.wait_for_function(
            "n => { var c = window.__chances; return c.length && c[c.length - 1].points === n; }",
            arg=expected,
            timeout=timeout * 1000,
        )
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError: reported by the caller
        return False
    return True


def play(args: argparse.Namespace, servers: Servers, setup: dict[str, Any]) -> list[Move]:
    from playwright.sync_api import sync_playwright

    port, match_id = servers.ports["uvicorn"], setup["match"]
    tokens = {int(player): token for player, token in setup["tokens"].items()}
    rng = random.Random(args.seed)
    chances_path = f"/api/v1/matches/{match_id}/chances/"
    moves: list[Move] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.set_default_timeout(LOAD_SECONDS * 1000)  # the page's load; a move's: --timeout
            page.add_init_script(OBSERVER)
            page.goto(f"http://127.0.0.1:{port}/matches/{match_id}/")
            if page.locator("#chances").count() == 0:
                raise SystemExit("the spectator's page has no chances (no network in --weights?)")
            try:
                page.wait_for_selector("#chances [data-chance-one-label]", state="visible")
            except Exception as error:  # noqa: BLE001 - Playwright's TimeoutError
                raise SystemExit(f"the spectator's page shows no chance: {error}") from None
            if not wait_points(page, len(api(port, "GET", chances_path)["points"]), LOAD_SECONDS):
                raise SystemExit("the spectator's page did not draw its first chance")
            if page.evaluate("document.querySelector('[data-socket-url]')?.dataset.socketUrl"):
                print("the page listens on its socket")
            else:
                print("the page has no socket: it polls (no channel layer?)")
            browser_pid = browser_process_pid()
            cpu_start = sum(servers.cpu().values())
            browser_start = tree_cpu_seconds(browser_pid) if browser_pid else 0.0
            game = api(port, "GET", f"/api/v1/games/{setup['game']}/", tokens[min(tokens)])
            requests = rolls = 0
            while len(moves) < args.moves and requests < 4 * args.moves:
                requests += 1
                while game["status"] != "in_progress":
                    if game["next_game"] is None:
                        print("the match is over")
                        break
                    game = api(
                        port, "GET", f"/api/v1/games/{game['next_game']}/", tokens[min(tokens)]
                    )
                if game["status"] != "in_progress":
                    break
                player = game["player_to_move"]["id"]
                if game["roll_due"] or not game["legal_plays"]:
                    # The opening roll of a new game, say: not a move, nor measured; the page
                    # shows what it changed before the next move.
                    game = api(port, "POST", f"/api/v1/games/{game['id']}/roll/", tokens[player])
                    wait_points(page, len(api(port, "GET", chances_path)["points"]), args.timeout)
                    rolls += 1
                    continue
                choice = rng.choice(game["legal_plays"])
                body = {"ply": game["ply"], "moves": choice["moves"]}
                changes = page.evaluate("window.__chances.length")
                updates = page.evaluate("window.__updated.length")
                t0 = time.time()
                answer = api(
                    port, "POST", f"/api/v1/games/{game['id']}/plays/", tokens[player], body
                )
                move = Move(ply=game["ply"], game=game["id"], answer=time.time() - t0)
                try:
                    page.wait_for_function(
                        "n => window.__chances.length > n", arg=changes, timeout=args.timeout * 1000
                    )
                    change = page.evaluate(f"window.__chances[{changes}]")
                    move.shown = change["at"] / 1000 - t0
                    move.label = change["label"]
                except Exception:  # noqa: BLE001 - Playwright's TimeoutError: a failed move
                    pass
                updated = page.evaluate(f"window.__updated.slice({updates})")
                if updated:
                    move.updated = updated[0] / 1000 - t0
                moves.append(move)
                if args.verbose:
                    print(describe(len(moves), move))
                game = answer
                expected = len(api(port, "GET", chances_path)["points"])
                if not wait_points(page, expected, args.timeout):
                    print(
                        f"  move {len(moves)}: the page never showed the endpoint's "
                        f"{expected} points"
                    )
                time.sleep(args.pause)
            server_cpu = sum(servers.cpu().values()) - cpu_start
            browser_cpu = (tree_cpu_seconds(browser_pid) - browser_start) if browser_pid else 0.0
        finally:
            browser.close()
    print(f"rolls asked between the moves (not measured): {rolls}")
    if moves:
        print(
            f"server CPU: {server_cpu * 1000 / len(moves):.0f} ms a move; browser CPU (all its "
            f"processes): {browser_cpu * 1000 / len(moves):.0f} ms a move"
        )
    return moves


def browser_process_pid() -> int | None:
    """The chromium this process launched (Playwright's driver is our child, chromium its)."""
    for child in children_of(os.getpid()):
        for grandchild in children_of(child):
            try:
                if "chrom" in Path(f"/proc/{grandchild}/comm").read_text():
                    return grandchild
            except FileNotFoundError:
                continue
    return None


def describe(number: int, move: Move) -> str:
    def ms(value: float | None) -> str:
        return "   -   " if value is None else f"{value * 1000:7.0f}"

    return (
        f"  move {number:3d} (game {move.game} ply {move.ply:3d}): answer {ms(move.answer)} ms, "
        f"updated {ms(move.updated)} ms, chance shown {ms(move.shown)} ms  {move.label}"
    )


def summary(moves: list[Move], timeout: float) -> None:
    shown = sorted(move.shown for move in moves if move.shown is not None)
    failed = len(moves) - len(shown)
    print(f"moves: {len(moves)}; chance changed within {timeout:g} s: {len(shown)}; not: {failed}")
    if not moves:
        return

    def figures(values: list[float]) -> str:
        values = sorted(values)
        p95 = (
            statistics.quantiles(values, n=20, method="inclusive")[-1]
            if len(values) > 1
            else values[0]
        )
        return (
            f"median {statistics.median(values) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"max {values[-1] * 1000:.0f} ms"
        )

    print(f"  the play's API answer:   {figures([move.answer for move in moves])}")
    updated = [move.updated for move in moves if move.updated is not None]
    if updated:
        print(f"  the page's update:       {figures(updated)} (the push and the fragment)")
    if shown:
        print(f"  the chance on the page:  {figures(shown)}")
    # By the game's ply: a new turn extends the game's cached series (games/chances.py, D158),
    # and the page's fragment and the chances carry only what the page does not hold (D160).
    # Each span also splits the median: the page's update (the push and the fragment), then the
    # chance after it (the chances' request and the redraw).
    spans: dict[int, list[float]] = {}
    parts: dict[int, list[tuple[float, float]]] = {}
    for move in moves:
        if move.shown is not None:
            spans.setdefault((move.ply - 1) // PLY_SPAN, []).append(move.shown)
            if move.updated is not None:
                split = (move.updated, move.shown - move.updated)
                parts.setdefault((move.ply - 1) // PLY_SPAN, []).append(split)
    if len(spans) > 1:
        print("  by the game's ply:")
        for span, values in sorted(spans.items()):
            first = span * PLY_SPAN + 1
            split = parts.get(span, [])
            medians = (
                f"; update median {statistics.median(u for u, _ in split) * 1000:.0f} ms, "
                f"then the chance {statistics.median(c for _, c in split) * 1000:.0f} ms"
                if split
                else ""
            )
            print(
                f"    plies {first}-{first + PLY_SPAN - 1}: {len(values)} moves, {figures(values)}"
                f"{medians}"
            )
    within = sum(value <= GOAL_SECONDS for value in shown)
    print(
        f"within {GOAL_SECONDS:g} s of the move: {within} of {len(moves)} "
        f"({within * 100 / len(moves):.1f} %)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="plays measured")
    parser.add_argument("--seed", type=int, default=1, help="seed of the plays' choice")
    parser.add_argument(
        "--weights", type=Path, default=ROOT / "weights", help="the networks (TABLA_WEIGHTS_DIR)"
    )
    parser.add_argument("--redis", action="store_true", help="a redis-server as channel layer")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between moves")
    parser.add_argument("--timeout", type=float, default=10.0, help="a move's wait, seconds")
    parser.add_argument("--verbose", action="store_true", help="print every move")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing (apt-get install chromium)")
    weights = args.weights.resolve()

    print(f"weights: {weights}")
    for line in weights_summary(weights):
        print(line)
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    shm = Path("/dev/shm")
    in_ram = str(shm) if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK) else None
    with (
        tempfile.TemporaryDirectory(prefix="tabla-spectator-") as scratch,
        tempfile.TemporaryDirectory(prefix="tabla-spectator-cache-", dir=in_ram) as cache_dir,
    ):
        database_url = f"sqlite:///{scratch}/bench.sqlite3"
        redis_port = free_port() if args.redis else None
        layer_url = f"redis://127.0.0.1:{redis_port}/0" if redis_port else ""
        env = server_env(
            database_url=database_url,
            debug=None,
            # A cache of this run's own: the default one (per checkout, in /dev/shm) outlives the
            # throw-away database, and a game's chances are cached under its id and last turn's
            # id, which every fresh database hands out again (game 1, turns 1, 2, ...).
            cache_url=f"file://{cache_dir}",
            layer_url=layer_url,
            weights=weights,
            extra={
                # No clock sweeps in the server process: nothing but the moves and the page run
                # there.
                "CLOCK_SWEEP_IN_PROCESS_SECONDS": "0",
                # Django's note on each static file whitenoise streams through ASGI, as under
                # `make run`.
                "PYTHONWARNINGS": "ignore:StreamingHttpResponse must consume",
            },
        )
        manage(env, "migrate", "--noinput")
        setup = json.loads(
            manage(env, "shell", "--no-imports", "-c", SETUP.replace("{seed}", str(args.seed)))
            .strip()
            .splitlines()[-1]
        )
        servers = start_servers(env, redis_port, scratch)
        try:
            print(
                f"uvicorn on 127.0.0.1:{servers.ports['uvicorn']}, channel layer "
                f"{'redis' if redis_port else 'in memory'}; match {setup['match']} (unrated)"
            )
            moves = play(args, servers, setup)
        finally:
            servers.stop()
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    summary(moves, args.timeout)
    failed = sum(move.shown is None for move in moves)
    if failed:
        raise SystemExit(f"{failed} move(s) never showed their chance within {args.timeout:g} s")


if __name__ == "__main__":
    main()
