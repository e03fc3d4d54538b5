"""The admin as an organiser reads it: every model named with a proper English plural."""

import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse


def naive_plural(name: str) -> bool:
    """Django's default plural (the name plus "s") where English wants "-ies" or "-es"."""
    return bool(re.search(r"([^aeiou]ys|(ch|sh|s|x|z)s)$", name))


@pytest.mark.parametrize("model", apps.get_models(), ids=lambda model: model._meta.label)
def test_every_model_has_a_proper_plural(model):
    assert not naive_plural(str(model._meta.verbose_name_plural)), model._meta.label


@pytest.mark.django_db
def test_the_admin_index_lists_entries_and_matches(django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.com", "pw"))
    html = client.get(reverse("admin:index")).content.decode()
    for label in ["Matches", "Entries", "Tournament matches", "Rating history"]:
        assert f">{label}</a>" in html
    assert "Matchs" not in html and "Entrys" not in html and "historys" not in html
