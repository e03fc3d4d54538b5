"""Write a match as JSON lines (the same format as GET /api/v1/matches/{id}/export/)."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import selectors
from games.models import Match


class Command(BaseCommand):
    help = "Print every game of a match as JSON lines: dice, moves and POSITION after each turn."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        match = Match.objects.filter(pk=options["match_id"]).first()
        if match is None:
            raise CommandError(f"no match {options['match_id']}")
        for line in selectors.match_export(match):
            self.stdout.write(json.dumps(line, separators=(",", ":")))
