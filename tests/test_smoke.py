"""Smoke tests: the service starts, reaches its database and publishes its schema."""

import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_healthz_reports_ok_after_reaching_the_database(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_openapi_schema_is_served(client):
    response = client.get(reverse("schema"))

    assert response.status_code == 200
    assert b"title: Tabla API" in response.content


@pytest.mark.django_db
def test_openapi_schema_is_served_as_json_to_api_clients(api_client):
    response = api_client.get(reverse("schema"), {"format": "json"})

    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Tabla API"
