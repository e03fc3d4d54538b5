"""Services: everything that writes rows. Keyword-only, typed, returning what they changed."""

from games.services.exchange import match_export, match_import, match_import_by
from games.services.matches import (
    check_decider,
    game_start,
    match_accept,
    match_concede,
    match_correct,
    match_create,
    match_decline,
    match_forfeit,
    match_propose,
    match_start,
    matches_create_many,
)
from games.services.play import (
    cube_double,
    cube_drop,
    cube_take,
    dice_roll,
    game_resign,
    play_submit,
)
from games.services.report_codes import (
    Slip,
    report_codes_issue,
    result_confirm_by_code,
    result_dispute_by_code,
    result_report_by_code,
)
from games.services.results import (
    result_confirm,
    result_dispute,
    result_override,
    result_report,
)

__all__ = [
    "Slip",
    "check_decider",
    "cube_double",
    "cube_drop",
    "cube_take",
    "dice_roll",
    "game_resign",
    "game_start",
    "match_accept",
    "match_concede",
    "match_correct",
    "match_create",
    "match_decline",
    "match_export",
    "match_forfeit",
    "match_import",
    "match_import_by",
    "match_propose",
    "match_start",
    "matches_create_many",
    "play_submit",
    "report_codes_issue",
    "result_confirm_by_code",
    "result_dispute_by_code",
    "result_report_by_code",
    "result_confirm",
    "result_dispute",
    "result_override",
    "result_report",
]
