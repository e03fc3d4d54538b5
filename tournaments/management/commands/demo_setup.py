"""Load the demo: eight players in a club, one finished match and one match in progress (played
through the services with random legal plays), and two tournaments with some results
(tournaments/demo.py); and a ninth player the organiser entered without an account, with a
finished match, whose invitation link it prints. Running it again changes nothing (the
invitation printed stays the same while it is good)."""

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand
from django.db import transaction
from rest_framework.authtoken.models import Token

from common.site import absolute_url
from games import services
from games.demo import game_play_random, match_play_random
from games.models import Match
from players import selectors as player_selectors
from players import services as player_services
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
DEMO_INVITED = ("Petar Angelov", "MK")  # entered by the organiser, no account
LOCAL_SITE = "http://127.0.0.1:8000"  # make run's address, when SITE_URL is not set
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
        organiser = self._user(DEMO_ORGANISER)
        organiser.groups.add(rated_organisers_group())
        if Match.objects.filter(player_one__in=players[:4], tournament_match=None).exists():
            self.stdout.write("demo already loaded")
        else:
            self._matches(players[:4])
            self._invited_match(organiser, players[1])
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
        self._invitation(organiser)

    def _invited(self, organiser: Any) -> Player:
        club = Club.objects.get(name="Demo Tabla Club")
        name, country = DEMO_INVITED
        player, _ = Player.objects.get_or_create(
            display_name=name,
            club=club,
            defaults={"country": country, "created_by": organiser},
        )
        return player

    @transaction.atomic
    def _invited_match(self, organiser: Any, opponent: Player) -> None:
        """A match the organiser entered for the invited player: history to keep."""
        invited = self._invited(organiser)
        match = services.match_create(creator=organiser, player_one=invited, player_two=opponent)
        match_play_random(match=match, rng=random.Random(2025))

    def _invitation(self, organiser: Any) -> None:
        invited = self._invited(organiser)
        if invited.user_id is not None:
            self.stdout.write(f"player {invited.pk} {invited.display_name} has taken their record")
            return
        code = player_selectors.invitation_code(invited)
        if code is None:
            code = player_services.claim_code_create(user=organiser, player=invited).code
        link = absolute_url(None, player_selectors.invitation_path(code))
        if link.startswith("/"):
            link = LOCAL_SITE + link
        self.stdout.write(
            f"player {invited.pk} {invited.display_name} (no account): invitation {link} "
            "(open it to sign up as this player and keep their results and rating)"
        )

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
