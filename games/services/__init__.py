"""Services: everything that writes rows. The public use-cases, exported here: each is
keyword-only and typed, takes the one who acts as a user (the play services: or a trusted
caller's player), owns its transaction and returns what it changed. The steps they are made of
run inside their caller's transaction and are private to the package
(``games/services/_steps.py``). The ratings (``ratings``) and the owed follow-up tasks
(``owed``) are called by the tasks and by the steps."""

from games.services.challenges import (
    open_challenge_post,
    open_challenge_take,
    open_challenge_withdraw,
    open_challenges_expire,
)
from games.services.clock import clocks_sweep, match_claim, match_time_out
from games.services.exchange import match_export, match_import, match_import_by
from games.services.matches import (
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
from games.services.notifications import notifications_email, notifications_read
from games.services.play import (
    cube_double,
    cube_drop,
    cube_take,
    dice_roll,
    game_resign,
    match_resign,
    play_submit,
)
from games.services.practice import computer_play, practice_start
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
    "clocks_sweep",
    "computer_play",
    "cube_double",
    "cube_drop",
    "cube_take",
    "dice_roll",
    "game_resign",
    "match_accept",
    "match_claim",
    "match_concede",
    "match_correct",
    "match_create",
    "match_decline",
    "match_export",
    "match_forfeit",
    "match_import",
    "match_import_by",
    "match_propose",
    "match_resign",
    "match_start",
    "match_time_out",
    "matches_create_many",
    "notifications_email",
    "notifications_read",
    "open_challenge_post",
    "open_challenge_take",
    "open_challenge_withdraw",
    "open_challenges_expire",
    "play_submit",
    "practice_start",
    "report_codes_issue",
    "result_confirm_by_code",
    "result_dispute_by_code",
    "result_report_by_code",
    "result_confirm",
    "result_dispute",
    "result_override",
    "result_report",
]
