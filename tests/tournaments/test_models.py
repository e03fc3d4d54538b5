"""Players and clubs: a player is one Django user with a display name, club and rating fields."""

import pytest
from django.db import IntegrityError

from players.models import Player
from tests.games.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_player_belongs_to_a_user_and_a_club():
    club = ClubFactory(name="Skopje Tabla")
    player = PlayerFactory(display_name="Ana", club=club)
    assert str(player) == "Ana" and str(club) == "Skopje Tabla"
    assert player.user.player == player and list(club.players.all()) == [player]
    assert player.rating == 1500.0 and player.rating_games == 0


def test_a_user_has_at_most_one_player():
    user = UserFactory()
    PlayerFactory(user=user)
    with pytest.raises(IntegrityError):
        Player.objects.create(user=user, display_name="again")


def test_deleting_a_club_keeps_its_players():
    player = PlayerFactory()
    player.club.delete()
    player.refresh_from_db()
    assert player.club is None
