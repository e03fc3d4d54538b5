"""Hand-made positions for board pictures: bar, borne-off checkers, dice and tapa pins."""

from games.models import Game, Match

EMPTY = [[] for _ in range(24)]


def position(turn: str, stacks: dict[int, list], bar=(0, 0), off=(0, 0), pending=None) -> dict:
    points = [list(stacks.get(point, [])) for point in range(1, 25)]
    data = {
        "turn": turn,
        "points": points,
        "bar": {"w": bar[0], "b": bar[1]},
        "off": {"w": off[0], "b": off[1]},
        "rolls": {"w": 9, "b": 9},
    }
    if pending:
        data.update(pending=pending, pending_kind="cascade")
    return data


# White has one checker on the bar and three borne off; black has two on the bar.
TABLA_BAR_AND_OFF = position(
    "w",
    {
        6: [["w", 4]],
        5: [["w", 3]],
        4: [["w", 2]],
        1: [["w", 2]],
        24: [["b", 5]],
        19: [["b", 4]],
        20: [["b", 3]],
        12: [["b", 1]],
    },
    bar=(1, 2),
    off=(3, 0),
)

# A black checker pinned under two white ones on 13, a white one pinned under three black on 5.
TAPA_PINS = position(
    "b",
    {
        24: [["w", 7]],
        13: [["b", 1], ["w", 2]],
        8: [["w", 3]],
        1: [["b", 8]],
        5: [["w", 1], ["b", 3]],
        20: [["b", 3]],
    },
    off=(2, 0),
)


def game_with_position(match: Match, variant: str, data: dict, dice=None) -> Game:
    """A game row showing ``data`` (no turn log): enough to draw the board."""
    return Game.objects.create(
        match=match,
        number=match.games.count() + 1,
        variant=variant,
        white=match.player_one,
        black=match.player_two,
        position=data,
        dice=dice,
        ply=10,
    )
