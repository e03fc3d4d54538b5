"""The admin as an organiser reads it: every model named with a proper English plural, and
ratings with one decimal rather than every digit of the stored float."""

import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import RatingHistory
from players.models import VariantRating
from tests.games.factories import MatchFactory, PlayerFactory


@pytest.fixture
def admin_client(django_user_model) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.com", "pw"))
    return client


def naive_plural(name: str) -> bool:
    """Django's default plural (the name plus "s") where English wants "-ies" or "-es"."""
    return bool(re.search(r"([^aeiou]ys|(ch|sh|s|x|z)s)$", name))


@pytest.mark.parametrize("model", apps.get_models(), ids=lambda model: model._meta.label)
def test_every_model_has_a_proper_plural(model):
    assert not naive_plural(str(model._meta.verbose_name_plural)), model._meta.label


@pytest.mark.django_db
def test_the_admin_index_lists_entries_and_matches(admin_client):
    html = admin_client.get(reverse("admin:index")).content.decode()
    for label in ["Matches", "Entries", "Tournament matches", "Rating history"]:
        assert f">{label}</a>" in html
    assert "Matchs" not in html and "Entrys" not in html and "historys" not in html


@pytest.mark.django_db
def test_ratings_show_one_decimal_not_the_stored_float(admin_client):
    player = PlayerFactory(display_name="Vesna", rating=1482.6794919243112)
    VariantRating.objects.create(player=player, variant="tapa", rating=1466.0573103364259)
    history = RatingHistory.objects.create(
        player=player, match=MatchFactory(player_one=player), variant="", sequence=1,
        rating=1482.6794919243112, change=-10.094893919886545, experience=1,
        rated_at=timezone.now(),
    )  # fmt: skip
    pages = {
        reverse("admin:players_player_changelist"): ["1482.7"],
        reverse("admin:players_player_change", args=[player.pk]): ["1482.7", "1466.1"],
        reverse("admin:players_variantrating_changelist"): ["1466.1"],
        reverse("admin:games_ratinghistory_changelist"): ["1482.7", "-10.1"],
        reverse("admin:games_ratinghistory_change", args=[history.pk]): ["1482.7", "-10.1"],
    }
    for url, shown in pages.items():
        html = admin_client.get(url).content.decode()
        assert all(text in html for text in shown), (url, shown)
        assert not any(stored in html for stored in ["1482.67", "1466.05", "10.09"]), url
