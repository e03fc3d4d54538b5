"""Services: everything that writes rows. Keyword-only, typed, returning what they changed.
Only the public use-cases are exported here; the steps they share stay in their modules."""

from tournaments.services.formats import swiss_round_pair
from tournaments.services.lifecycle import (
    TournamentSettings,
    entries_register_many,
    entries_seed,
    entry_check_in,
    entry_register,
    entry_withdraw,
    organiser_add,
    registration_close,
    registration_open,
    tournament_create,
    tournament_start,
    tournament_update,
)
from tournaments.services.results import (
    result_correct,
    round_deadline_set,
    round_forfeit_no_shows,
    tournament_match_record,
)
from tournaments.services.standings import standings_recompute, standings_recompute_all

__all__ = [
    "TournamentSettings",
    "entries_register_many",
    "entries_seed",
    "entry_check_in",
    "entry_register",
    "entry_withdraw",
    "organiser_add",
    "registration_close",
    "registration_open",
    "result_correct",
    "round_deadline_set",
    "round_forfeit_no_shows",
    "standings_recompute",
    "standings_recompute_all",
    "swiss_round_pair",
    "tournament_create",
    "tournament_match_record",
    "tournament_start",
    "tournament_update",
]
