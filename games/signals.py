"""Signals the games services send, so other apps can react without games importing them.

Receivers only hand over to a service of their own app (tournaments.receivers). Games rates a
finished match itself, right after sending (games.services._steps.match_finished_announce).
"""

from django.dispatch import Signal

# Sent inside the service's transaction when a match ends (played out, reported or forfeited).
# Arguments: match.
match_finished = Signal()
