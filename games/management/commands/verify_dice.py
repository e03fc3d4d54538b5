"""Check finished games' dice against their published SHA-256 commitments."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import selectors
from games.models import Game


class Command(BaseCommand):
    help = "Recompute every roll of finished games from the revealed seed and the commitment."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games (default all)")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.select_related("match").exclude(seed="").order_by("pk")
        games = games.exclude(status=Game.Status.IN_PROGRESS)
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        bad = 0
        for game in games.iterator():
            proof = selectors.game_dice_proof(game)
            if not proof["verified"]:
                bad += 1
                for problem in proof["problems"]:
                    self.stdout.write(f"game {game.pk}: {problem}")
        checked = games.count()
        if bad:
            raise CommandError(f"{bad} of {checked} games fail the dice check")
        self.stdout.write(self.style.SUCCESS(f"{checked} finished games: dice match commitments"))
