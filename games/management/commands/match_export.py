"""Write a match as JSON lines or as a Jellyfish .mat file (the formats of
GET /api/v1/matches/{id}/export/ and of its ?format=mat)."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import selectors, services
from games.models import Match


class Command(BaseCommand):
    help = (
        "Print every game of a match as JSON lines (dice, moves and POSITION after each turn), "
        "or with --format mat its Tabla games as a .mat file for GNU Backgammon or XG."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)
        parser.add_argument("--format", choices=["jsonl", "mat"], default="jsonl")

    def handle(self, *args: Any, **options: Any) -> None:
        match = Match.objects.filter(pk=options["match_id"]).first()
        if match is None:
            raise CommandError(f"no match {options['match_id']}")
        if options["format"] == "mat":
            self.stdout.write(selectors.match_export_mat(match), ending="")
            return
        for line in services.match_export(match):
            self.stdout.write(json.dumps(line, separators=(",", ":")))
