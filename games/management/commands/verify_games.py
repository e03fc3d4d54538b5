"""Replay every stored game's turn log through the engine and report any difference."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import selectors
from games.models import Game


class Command(BaseCommand):
    help = "Replay every game's turns through the engine; report games whose stored state differs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games (default all)")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.select_related("match").order_by("pk")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        bad = 0
        for game in games.iterator():
            problems = selectors.game_replay_problems(game)
            if problems:
                bad += 1
                for problem in problems:
                    self.stdout.write(f"game {game.pk} (match {game.match_id}): {problem}")
        checked = games.count()
        if bad:
            raise CommandError(f"{bad} of {checked} games differ from the replay of their turns")
        self.stdout.write(self.style.SUCCESS(f"{checked} games checked: all match their replay"))
