"""The language of the pages: it follows the browser (Accept-Language) until the visitor
switches it in the footer; a signed-in player's switch is stored on their account
(players.views.set_language) and comes back at their next log-in, in another browser
(players.signals, players.middleware)."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from common.errors import InvalidRequestError
from players import services
from players.models import Player
from tests.games.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

SWITCH = reverse("set_language")
LOGIN = reverse("login")
HOME = reverse("web:home")


def cookie(response) -> str | None:
    morsel = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
    return morsel.value if morsel is not None else None


@pytest.fixture
def vesna(db):
    return PlayerFactory(user=UserFactory(username="vesna"), display_name="Vesna")


def test_the_language_follows_the_browser_until_switched():
    client = Client()
    assert 'lang="mk"' in client.get(HOME, HTTP_ACCEPT_LANGUAGE="mk").content.decode()
    assert 'lang="bg"' in client.get(HOME, HTTP_ACCEPT_LANGUAGE="bg,en;q=0.5").content.decode()
    response = client.post(SWITCH, {"language": "el", "next": HOME})
    assert response.status_code == 302 and cookie(response) == "el"
    page = client.get(HOME, HTTP_ACCEPT_LANGUAGE="mk").content.decode()
    assert 'lang="el"' in page and "Ζωντανοί αγώνες" in page


def test_the_footer_offers_every_language_under_its_own_name():
    page = Client().get(HOME, HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    for code, name in settings.LANGUAGES:
        chosen = ' current" aria-current="true' if code == "tr" else ""
        button = (
            f'name="language" value="{code}" lang="{code}" class="link{chosen}">{name}</button>'
        )
        assert button in page


def test_a_player_s_switch_is_stored_and_comes_back_at_the_next_log_in(vesna):
    at_home = Client()
    at_home.force_login(vesna.user)
    at_home.post(SWITCH, {"language": "bg", "next": HOME})
    vesna.refresh_from_db()
    assert vesna.language == "bg"

    elsewhere = Client()  # another browser, which asks for English
    response = elsewhere.post(LOGIN, {"username": "vesna", "password": "password"})
    assert response.status_code == 302 and cookie(response) == "bg"
    page = elsewhere.get(HOME, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'lang="bg"' in page and "Мачове на живо" in page


def test_without_a_stored_language_the_log_in_leaves_the_browser_s(vesna):
    client = Client()
    response = client.post(LOGIN, {"username": "vesna", "password": "password"})
    assert response.status_code == 302 and cookie(response) is None
    assert 'lang="mk"' in client.get(HOME, HTTP_ACCEPT_LANGUAGE="mk").content.decode()


def test_visitors_and_accounts_without_a_player_switch_with_the_cookie_only(vesna):
    visitor = Client()
    assert cookie(visitor.post(SWITCH, {"language": "tr", "next": HOME})) == "tr"
    organiser = Client()
    organiser.force_login(UserFactory(username="organiser"))
    assert cookie(organiser.post(SWITCH, {"language": "tr", "next": HOME})) == "tr"
    assert set(Player.objects.values_list("language", flat=True)) == {""}


def test_an_unknown_language_is_neither_set_nor_stored(vesna):
    client = Client()
    client.force_login(vesna.user)
    response = client.post(SWITCH, {"language": "xx", "next": HOME})
    assert response.status_code == 302 and cookie(response) is None
    vesna.refresh_from_db()
    assert vesna.language == ""
    with pytest.raises(InvalidRequestError):
        services.player_language_set(user=vesna.user, language="xx")


@pytest.mark.parametrize(
    ("language", "detail"),
    [
        ("en", "the claim code is wrong or has expired"),
        ("mk", "кодот за преземање е погрешен или истечен"),
        ("bg", "кодът за поемане е грешен или е изтекъл"),
        ("el", "ο κωδικός διεκδίκησης είναι λάθος ή έχει λήξει"),
        ("tr", "sahiplenme kodu yanlış ya da süresi dolmuş"),
    ],
)
def test_the_api_s_messages_to_players_speak_the_request_s_language(vesna, language, detail):
    client = APIClient()
    client.force_authenticate(UserFactory(username="newcomer"))
    response = client.post(
        reverse("players:player-claim"),
        {"code": "ABCD-EFGH-JKLM-NPQR"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400 and response.json() == {"detail": detail}
