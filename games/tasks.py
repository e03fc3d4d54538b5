"""Celery tasks: thin interfaces that call the service of the same name."""

import logging

from common.tasks import shared_task
from games import postgame
from games.services import challenges as challenge_services
from games.services import clock as clock_services
from games.services import notifications as notification_services
from games.services import owed as owed_services
from games.services import practice as practice_services
from games.services import ratings as ratings_services

logger = logging.getLogger(__name__)


@shared_task
def ratings_recompute(from_match: int | None = None) -> int:
    """Recompute every rating, or only from the corrected match ``from_match`` onward."""
    if from_match is None:
        return ratings_services.ratings_recompute()
    return ratings_services.ratings_recompute(from_match=from_match)


@shared_task
def ratings_update(match_id: int | None = None) -> int:
    """Rate the finished match ``match_id`` (None: every result not rated yet)."""
    return ratings_services.ratings_update(match_id=match_id)


@shared_task
def owed_tasks_run() -> int:
    return owed_services.owed_tasks_run()


@shared_task
def match_time_out(match_id: int) -> bool:
    """End the match if its clock has run out (a match's deadline task): True when it did."""
    return clock_services.match_time_out(match=match_id) is not None


@shared_task
def clocks_sweep() -> int:
    return clock_services.clocks_sweep()


@shared_task
def open_challenges_expire() -> int:
    return challenge_services.open_challenges_expire()


@shared_task
def notifications_email(kind: str, match_ids: list[int], report_ids: list[int]) -> int:
    """Send the e-mail of the new notifications of ``kind`` about ``match_ids`` (a result to
    confirm: ``report_ids``), queued on commit where they were made."""
    return notification_services.notifications_email(
        kind=kind, match_ids=match_ids, report_ids=report_ids
    )


@shared_task
def computer_play(match_id: int) -> int:
    """The computer's turn in its practice match, queued on commit after each write of the
    human (nothing when it is not the computer's turn): how many decisions it made."""
    return practice_services.computer_play(match=match_id)


@shared_task
def review_warm(match_id: int) -> int:
    """Review the match that has just ended into the cache (games.postgame.review_warm), queued
    on the commit that ended it: how many games it reviewed. A failure is logged and skipped,
    never retried: the first reader of the review computes it then (docs/decisions.md D138)."""
    try:
        return postgame.review_warm(match=match_id)
    except Exception:
        logger.exception("the review of match %s was not computed: its first reader will", match_id)
        return 0
