"""Rate every result again, in chunks (games.services.ratings; docs/decisions.md D77)."""

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services import ratings


class Command(BaseCommand):
    help = (
        "Recompute every rating and the rating history from the results, in chunks of --chunk "
        "results a transaction; rows that are right already are not written."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--chunk",
            type=int,
            default=ratings.RECOMPUTE_CHUNK,
            help=f"results a transaction (default {ratings.RECOMPUTE_CHUNK})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["chunk"] < 1:
            raise CommandError("--chunk must be at least 1")
        started = time.monotonic()
        rated = ratings.ratings_recompute(chunk=options["chunk"])
        seconds = time.monotonic() - started
        self.stdout.write(self.style.SUCCESS(f"{rated} results rated in {seconds:.1f} s"))
