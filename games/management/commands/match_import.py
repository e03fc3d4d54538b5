"""Import a match from a JSON-lines export, replaying every game through the engine."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.errors import GameServiceError
from games import services
from players.models import Player


class Command(BaseCommand):
    help = "Import a match export file for two players (ids); every turn is replayed and checked."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument("player_one", type=int)
        parser.add_argument("player_two", type=int)
        parser.add_argument(
            "--rated",
            action="store_true",
            help="count the match for the ratings (the operator vouches for it; default: unrated)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        players = Player.objects.in_bulk([options["player_one"], options["player_two"]])
        if len(players) != 2:
            raise CommandError("both player ids must exist and differ")
        try:
            match = services.match_import(
                text=options["path"].read_text(),
                creator=None,
                player_one=players[options["player_one"]],
                player_two=players[options["player_two"]],
                rated=options["rated"],
            )
        except (GameServiceError, ValueError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS(f"imported match {match.pk}"))
