"""The API docs work offline: Swagger UI comes from our static files, not from a CDN."""

import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

LINKED = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")


@pytest.mark.django_db
def test_swagger_ui_loads_only_local_static_files(client):
    response = client.get(reverse("docs"))
    html = response.content.decode()

    assert response.status_code == 200
    urls = LINKED.findall(html)
    assert any(url.endswith("swagger-ui-bundle.js") for url in urls)
    assert "://" not in html and "cdn" not in html.lower()
    for url in urls:
        if url == reverse("docs") + "?script=":  # Swagger UI's start-up script, not inline (CSP)
            script = client.get(url)
            assert script.status_code == 200 and b"://" not in script.content
            continue
        assert url.startswith(settings.STATIC_URL), url
        assert finders.find(url.removeprefix(settings.STATIC_URL)), url
