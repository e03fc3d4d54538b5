"""The admin never lets a staff user read or infer a running game's seed: no column, no form
field, no search, no sort, and no query-string lookup on it (?seed__startswith=a would otherwise
filter the changelist and give the seed away one hex digit at a time)."""

import pytest
from django.test import Client
from django.urls import reverse

from games.admin import GameAdmin
from games.models import Game


@pytest.fixture
def admin_client(django_user_model) -> Client:
    user = django_user_model.objects.create_superuser("root", "root@example.com", "password")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def running_game(online_match) -> Game:
    game = online_match.games.get()
    assert game.status == Game.Status.IN_PROGRESS and len(game.seed) == 64
    return game


def changelist(client: Client, model: str = "game", **params: str):
    return client.get(reverse(f"admin:{model}_changelist"), params)


def listed(response) -> list[int]:
    return [row.pk for row in response.context["cl"].result_list]


def test_the_changelist_lists_a_running_game(admin_client, running_game):
    response = changelist(admin_client, "games_game")
    assert response.status_code == 200 and listed(response) == [running_game.pk]
    assert running_game.seed not in response.content.decode()


@pytest.mark.parametrize(
    "lookup", ["seed", "seed__startswith", "seed__istartswith", "seed__gte", "seed__regex"]
)
def test_lookups_on_the_seed_are_refused(admin_client, running_game, lookup):
    right = running_game.seed if lookup == "seed" else running_game.seed[0]
    wrong = "x"
    for value in (right, wrong):
        response = changelist(admin_client, "games_game", **{lookup: value})
        # Django answers a disallowed lookup with 400 Bad Request: the answer is the same for
        # the right and the wrong guess, so it tells nothing.
        assert response.status_code == 400, (lookup, value)


@pytest.mark.parametrize(
    ("model", "lookup"),
    [
        ("games_match", "games__seed__startswith"),
        ("games_turn", "game__seed__startswith"),
        ("games_resultreport", "match__games__seed__startswith"),
        ("tournaments_tournamentmatch", "match__games__seed__startswith"),
    ],
)
def test_lookups_through_a_relation_to_the_seed_are_refused(
    admin_client, running_game, model, lookup
):
    response = changelist(admin_client, model, **{lookup: running_game.seed[0]})
    assert response.status_code == 400


def test_the_changelist_cannot_be_sorted_or_searched_by_seed(admin_client, online_match):
    """Two running games whose seeds sort the other way round from their ids: no ``o`` value
    orders by seed, and a search for a seed prefix finds nothing it would not find anyway."""
    first = online_match.games.get()
    second = Game.objects.get(pk=first.pk)
    second.pk, second.number = None, 2
    second.save()
    Game.objects.filter(pk=first.pk).update(seed="f" * 64)
    Game.objects.filter(pk=second.pk).update(seed="0" * 64)
    assert "seed" not in GameAdmin.list_display and not GameAdmin.search_fields

    columns = len(GameAdmin.list_display)
    for order in [*(str(i) for i in range(columns + 2)), *(f"-{i}" for i in range(columns)),
                  "seed", "-seed"]:  # fmt: skip
        response = changelist(admin_client, "games_game", o=order)
        assert response.status_code == 200, order
        ordering = response.context["cl"].queryset.query.order_by
        assert all(key.lstrip("-") != "seed" for key in ordering), (order, ordering)

    everything = listed(changelist(admin_client, "games_game"))
    assert listed(changelist(admin_client, "games_game", q="f")) == everything
    assert listed(changelist(admin_client, "games_game", q="0")) == everything


def test_the_change_page_of_a_running_game_hides_the_seed(admin_client, running_game):
    url = reverse("admin:games_game_change", args=[running_game.pk])
    html = admin_client.get(url).content.decode()
    assert running_game.seed not in html
    assert "hidden until the game is over" in html
    assert running_game.seed_commitment in html  # public from the start


def test_the_change_page_of_a_finished_game_shows_the_seed(admin_client, running_game):
    Game.objects.filter(pk=running_game.pk).update(status=Game.Status.FINISHED)
    url = reverse("admin:games_game_change", args=[running_game.pk])
    assert running_game.seed in admin_client.get(url).content.decode()


def test_saving_the_change_form_keeps_the_seed(admin_client, running_game):
    """The seed is no form field: a posted value is ignored, the stored seed stays."""
    url = reverse("admin:games_game_change", args=[running_game.pk])
    form = admin_client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {key: ("" if value is None else value) for key, value in data.items()}
    data["seed"] = "0" * 64
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Game.objects.get(pk=running_game.pk).seed == running_game.seed
