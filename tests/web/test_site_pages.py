"""Site-wide pages: the HTML 404 and 500 pages for the web (JSON under /api/), the
"Tournaments" link in the header and the tournaments list it leads to, the favicon."""

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from config.views import server_error
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_unknown_web_page_is_the_html_404_page():
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert "404.html" in [t.name for t in response.templates]
    html = response.content.decode()
    assert "Page not found" in html and 'class="site-header"' in html


def test_missing_tournament_page_is_the_html_404_page():
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    response = Client().get(reverse("tournaments_web:tournament", kwargs={"pk": draft.pk}))
    assert response.status_code == 404 and b"Page not found" in response.content


def test_unknown_api_path_keeps_the_json_404():
    response = Client().get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def test_404_page_in_macedonian():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "mk"
    assert "Страницата не е пронајдена" in client.get("/no/such/page/").content.decode()


def test_server_error_is_html_for_the_web_and_json_for_the_api():
    with translation.override("en"):  # called directly: no middleware picks the language
        web = server_error(RequestFactory().get("/matches/1/"))
    assert web.status_code == 500 and b"Server error" in web.content
    api = server_error(RequestFactory().get("/api/v1/matches/1/"))
    assert api.status_code == 500 and b'"detail"' in api.content


def test_header_links_to_the_tournaments_list():
    running = TournamentFactory(name="Spring Open", status=Tournament.Status.RUNNING)
    TournamentFactory(name="Secret Draft", status=Tournament.Status.DRAFT)
    home = Client().get(reverse("web:home")).content.decode()
    index_url = reverse("tournaments_web:index")
    assert f'href="{index_url}"' in home
    index = Client().get(index_url)
    assert index.status_code == 200
    html = index.content.decode()
    assert "Spring Open" in html and "Secret Draft" not in html
    assert reverse("tournaments_web:tournament", kwargs={"pk": running.pk}) in html


def test_empty_tournaments_list_says_so():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "mk"
    html = client.get(reverse("tournaments_web:index")).content.decode()
    assert "Сè уште нема турнири." in html and ">Турнири</a>" in html


def test_favicon_ico_redirects_for_good_to_the_icon_the_pages_link():
    response = Client().get("/favicon.ico")
    assert response.status_code == 301
    icon = response["Location"]
    assert icon == "/static/favicon.svg"
    assert f'<link rel="icon" href="{icon}"' in Client().get(reverse("web:home")).content.decode()
    found = finders.find("favicon.svg")  # the test client serves no static files
    assert found and Path(found).read_text().startswith("<svg")
