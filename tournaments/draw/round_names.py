"""The names people give the rounds of a tournament: "Quarter-final", "Losers' final", "Round 3".

Pure code (no Django). `round_name` names one round of one bracket section (or of a league);
its English text is `str(name)`, the API's `name`. The web pages translate the same names by
their `kind` (tournaments.web.pages, `round_label`).

Elimination rounds are named from the end: the last round of a flight is its final, and a
round of the main flight is named after the number of players its draw holds (`Round of 16`).
Double elimination prefixes the winners' rounds ("Winners' semi-final"), since the final there
is the grand final; a losers' or consolation flight has no halving draw to name its earlier
rounds by, so they keep their numbers ("Losers' round 2"). Round robin and Swiss rounds are
"Round N" (docs/decisions.md D34).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

ELIMINATION_FORMATS = ("single_elimination", "double_elimination", "consolation")


class RoundKind(StrEnum):
    ROUND = "round"  # a league round, or a round no other name fits: number = the round
    ROUND_OF = "round_of"  # number = players in the round's draw
    QUARTER_FINAL = "quarter_final"
    SEMI_FINAL = "semi_final"
    FINAL = "final"
    WINNERS_ROUND_OF = "winners_round_of"
    WINNERS_QUARTER_FINAL = "winners_quarter_final"
    WINNERS_SEMI_FINAL = "winners_semi_final"
    WINNERS_FINAL = "winners_final"
    LOSERS_ROUND = "losers_round"  # number = the round of the losers' flight
    LOSERS_FINAL = "losers_final"
    CONSOLATION_ROUND = "consolation_round"  # number = the round of the consolation flight
    CONSOLATION_FINAL = "consolation_final"
    THIRD_PLACE = "third_place"
    GRAND_FINAL = "grand_final"
    GRAND_FINAL_RESET = "grand_final_reset"


ENGLISH: dict[RoundKind, str] = {
    RoundKind.ROUND: "Round {number}",
    RoundKind.ROUND_OF: "Round of {number}",
    RoundKind.QUARTER_FINAL: "Quarter-final",
    RoundKind.SEMI_FINAL: "Semi-final",
    RoundKind.FINAL: "Final",
    RoundKind.WINNERS_ROUND_OF: "Winners' round of {number}",
    RoundKind.WINNERS_QUARTER_FINAL: "Winners' quarter-final",
    RoundKind.WINNERS_SEMI_FINAL: "Winners' semi-final",
    RoundKind.WINNERS_FINAL: "Winners' final",
    RoundKind.LOSERS_ROUND: "Losers' round {number}",
    RoundKind.LOSERS_FINAL: "Losers' final",
    RoundKind.CONSOLATION_ROUND: "Consolation round {number}",
    RoundKind.CONSOLATION_FINAL: "Consolation final",
    RoundKind.THIRD_PLACE: "Third-place match",
    RoundKind.GRAND_FINAL: "Grand final",
    RoundKind.GRAND_FINAL_RESET: "Grand final reset",
}

# Main-flight rounds by the players in their draw: single elimination, then double's winners.
_BY_PLAYERS = {
    2: (RoundKind.FINAL, RoundKind.WINNERS_FINAL),
    4: (RoundKind.SEMI_FINAL, RoundKind.WINNERS_SEMI_FINAL),
    8: (RoundKind.QUARTER_FINAL, RoundKind.WINNERS_QUARTER_FINAL),
}
_SINGLE_ROUND = {
    "third_place": RoundKind.THIRD_PLACE,
    "grand_final": RoundKind.GRAND_FINAL,
    "reset": RoundKind.GRAND_FINAL_RESET,
}
_SIDE_FLIGHTS = {
    "losers": (RoundKind.LOSERS_FINAL, RoundKind.LOSERS_ROUND),
    "consolation": (RoundKind.CONSOLATION_FINAL, RoundKind.CONSOLATION_ROUND),
}


@dataclass(frozen=True)
class RoundName:
    kind: RoundKind
    number: int | None = None  # players (ROUND_OF kinds) or the round (ROUND kinds)

    def __str__(self) -> str:
        return ENGLISH[self.kind].format(number=self.number)


def round_name(fmt: str, section: str, number: int, rounds: int) -> RoundName:
    """The name of round `number` of a bracket `section` that has `rounds` rounds, in a stage of
    format `fmt` (a knock-out after groups has the format of its bracket).

    >>> str(round_name("single_elimination", "main", 2, 4))
    'Quarter-final'
    >>> str(round_name("double_elimination", "losers", 4, 4))
    "Losers' final"
    >>> str(round_name("swiss", "main", 3, 5))
    'Round 3'

    Sections are those of tournaments.draw.brackets.Section; a group ("group-2") or any section of a
    league is named by its round number.
    """
    if number < 1 or number > rounds:
        raise ValueError(f"round {number} is not one of the {rounds} rounds of {section!r}")
    if fmt not in ELIMINATION_FORMATS:
        return RoundName(RoundKind.ROUND, number)
    if section in _SINGLE_ROUND:
        return RoundName(_SINGLE_ROUND[section])
    if section in _SIDE_FLIGHTS:
        final, other = _SIDE_FLIGHTS[section]
        return RoundName(final) if number == rounds else RoundName(other, number)
    if section != "main":
        return RoundName(RoundKind.ROUND, number)
    players = 2 ** (rounds - number + 1)
    winners = fmt == "double_elimination"
    if players in _BY_PLAYERS:
        return RoundName(_BY_PLAYERS[players][winners])
    return RoundName(RoundKind.WINNERS_ROUND_OF if winners else RoundKind.ROUND_OF, players)
