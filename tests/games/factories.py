"""factory_boy factories for users, clubs, players and matches."""

import factory
from django.contrib.auth import get_user_model

from games.engine import Options
from games.models import Match
from players.models import Club, Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("password")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    country = "MK"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    user = factory.SubFactory(UserFactory)
    display_name = factory.Sequence(lambda n: f"Player {n}")
    club = factory.SubFactory(ClubFactory)
    country = "MK"


class MatchFactory(factory.django.DjangoModelFactory):
    """A match row with no games; use services.match_create for a started online match."""

    class Meta:
        model = Match

    player_one = factory.SubFactory(PlayerFactory)
    player_two = factory.SubFactory(PlayerFactory)
    organiser = factory.SubFactory(UserFactory)
    mode = Match.Mode.OVER_THE_BOARD
    status = Match.Status.IN_PROGRESS
    rated = True  # as if both players agreed or staff entered it
    target_score = 5
    options = factory.LazyFunction(lambda: Options().to_json())
