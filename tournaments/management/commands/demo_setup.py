"""Load the demo: eight players in a club, one finished match and one match in progress (played
through the services with random legal plays), and two tournaments with some results
(tournaments/demo.py). Running it again changes nothing."""

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand
from django.db import transaction
from rest_framework.authtoken.models import Token

from games import services
from games.demo import game_play_random, match_play_random
from games.models import Match
from players.models import Club, Player
from tournaments.demo import demo_tournaments

DEMO_PASSWORD = "tabla-demo"
DEMO_PLAYERS = [
    ("ana", "Ana Petrovska", "MK"),
    ("boris", "Boris Ivanov", "BG"),
    ("vesna", "Vesna Trajkovska", "MK"),
    ("goran", "Goran Nikolov", "MK"),
    ("ilija", "Ilija Stojanov", "MK"),
    ("marija", "Marija Dimitrova", "BG"),
    ("nikola", "Nikola Jovanov", "RS"),
    ("elena", "Elena Kostova", "MK"),
]
DEMO_ORGANISER = "organiser"
RATED_ORGANISERS = "Rated tournament organisers"


def rated_organisers_group() -> Group:
    """The group staff put a club's trusted organisers in: they run rated tournaments and enter
    players without accounts (and hand out the codes to claim them). The demo's organiser is
    in it, and so is the organiser of the browser scenarios (tests/web/test_desk_scenarios.py)."""
    group, _ = Group.objects.get_or_create(name=RATED_ORGANISERS)
    group.permissions.add(
        Permission.objects.get(codename="run_rated_tournament"),
        Permission.objects.get(content_type__app_label="players", codename="add_player"),
    )
    return group


class Command(BaseCommand):
    help = (
        "Create demo players (password 'tabla-demo'), a finished match, one in progress, and "
        "two rated club tournaments (single elimination and Swiss) run by the user 'organiser'."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        players = [self._player(*row) for row in DEMO_PLAYERS]
        if Match.objects.filter(player_one__in=players[:4], tournament_match=None).exists():
            self.stdout.write("demo already loaded")
        else:
            self._matches(players[:4])
        organiser = self._user(DEMO_ORGANISER)
        organiser.groups.add(rated_organisers_group())
        for tournament in demo_tournaments(organiser=organiser, players=players):
            self.stdout.write(
                f"tournament {tournament.pk}: {tournament.name} ({tournament.format}), "
                f"desk /tournaments/{tournament.pk}/desk/"
            )
        self.stdout.write(
            f"organiser: log in as {DEMO_ORGANISER} (password {DEMO_PASSWORD}) to run them at "
            "their desks, or New tournament at /tournaments/"
        )
        for player in players:
            assert player.user is not None  # the demo players have accounts (_player)
            token, _ = Token.objects.get_or_create(user=player.user)
            self.stdout.write(f"player {player.pk} {player.user.username}: token {token.key}")

    def _player(self, username: str, name: str, country: str) -> Player:
        club, _ = Club.objects.get_or_create(
            name="Demo Tabla Club", defaults={"city": "Skopje", "country": "MK"}
        )
        user = self._user(username)
        player, _ = Player.objects.get_or_create(
            user=user, defaults={"display_name": name, "country": country, "club": club}
        )
        return player

    def _user(self, username: str) -> Any:
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        return user

    @transaction.atomic
    def _matches(self, players: list[Player]) -> None:
        rng = random.Random(2024)
        ana, boris, vesna, goran = players
        assert ana.user is not None and vesna.user is not None  # accounts, as _player made them
        finished = services.match_create(creator=ana.user, player_one=ana, player_two=boris)
        finished = match_play_random(match=finished, rng=rng)
        ongoing = services.match_create(creator=vesna.user, player_one=vesna, player_two=goran)
        ongoing = match_play_random(match=ongoing, rng=rng, max_games=1)
        game = ongoing.games.filter(status="in_progress").first()
        if game is not None:
            game_play_random(game=game, rng=rng, max_decisions=6)
        self.stdout.write(
            f"finished match {finished.pk} ({finished.score_one}-{finished.score_two}), "
            f"match {ongoing.pk} in progress"
        )
