"""The account pages through Django's test client: sign up (an account and its player; weak
passwords refused; limited per address; a taken e-mail address not told), the password reset
(the same answer for any address; the mailed link sets a new password), the password change,
the account page, and the header's links."""

import re
import runpy

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management.utils import get_random_secret_key
from django.test import Client
from django.urls import reverse

from players.models import Player
from tests.games.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

SIGNUP = reverse("signup")
RESET = reverse("password_reset")
STRONG = "tabla-gjul-42-bara"


def sign_up(client: Client, **fields: str):
    data = {
        "username": "newcomer",
        "display_name": "Nova Novakovska",
        "email": "",
        "password1": STRONG,
        "password2": STRONG,
        **fields,
    }
    return client.post(SIGNUP, data)


def test_signing_up_makes_an_account_and_its_player_and_logs_in():
    client = Client()
    assert client.get(SIGNUP).status_code == 200
    response = sign_up(client, email="nova@example.org")
    user = User.objects.get(username="newcomer")
    player = Player.objects.get(user=user)
    assert player.display_name == "Nova Novakovska" and player.rating == 1500.0
    assert user.email == "nova@example.org" and user.check_password(STRONG)
    assert response.status_code == 302 and response["Location"] == reverse(
        "web:player", args=[player.pk]
    )
    assert client.get(reverse("account")).status_code == 200  # logged in


def test_sign_up_goes_on_to_a_safe_next_page_only():
    assert sign_up(Client(), next="/tournaments/")["Location"] == "/tournaments/"
    other = sign_up(Client(), username="other", next="https://evil.example/")
    assert other["Location"] == reverse(
        "web:player", args=[Player.objects.get(user__username="other").pk]
    )


@pytest.mark.parametrize(
    "password, says",
    [("12345678", "too common"), ("short1", "too short"), ("newcomer1", "too similar")],
)
def test_a_weak_password_is_refused(password, says):
    response = sign_up(Client(), password1=password, password2=password)
    assert response.status_code == 200
    assert says in response.content.decode()
    assert not User.objects.filter(username="newcomer").exists()


def test_a_taken_username_is_said_but_a_taken_email_is_not():
    UserFactory(username="Taken", email="known@example.org")
    response = sign_up(Client(), username="taken")
    assert "already exists" in response.content.decode()
    assert not Player.objects.filter(display_name="Nova Novakovska").exists()
    # The same address as another account: signed up as any other (nothing says it is known).
    response = sign_up(Client(), email="known@example.org")
    assert response.status_code == 302
    assert User.objects.filter(email="known@example.org").count() == 2


def test_sign_ups_are_limited_per_address(settings):
    settings.SIGNUP_LIMIT_IP_ATTEMPTS = 3
    client = Client()
    statuses = [
        sign_up(client, username=f"user{n}", password1="x", password2="x").status_code
        for n in range(3)
    ]
    refused = sign_up(client, username="late")
    assert statuses == [200, 200, 200]
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many attempts" in refused.content.decode()
    assert not User.objects.filter(username="late").exists()
    other_address = Client(REMOTE_ADDR="192.0.2.7")
    assert sign_up(other_address, username="elsewhere").status_code == 302


def test_a_signed_in_user_is_sent_to_the_account_page():
    client = Client()
    client.force_login(UserFactory())
    assert client.get(SIGNUP)["Location"] == reverse("account")


def test_the_header_offers_sign_up_or_the_account():
    anonymous = Client().get(reverse("web:home")).content.decode()
    assert f'href="{SIGNUP}"' in anonymous and f'href="{reverse("account")}"' not in anonymous
    client = Client()
    client.force_login(UserFactory())
    signed_in = client.get(reverse("web:home")).content.decode()
    assert f'href="{reverse("account")}"' in signed_in and f'href="{SIGNUP}"' not in signed_in


# --- password reset and change ------------------------------------------------------------------


def test_the_reset_answers_the_same_for_a_known_and_an_unknown_address():
    UserFactory(username="known", email="known@example.org")
    known = Client().post(RESET, {"email": "known@example.org"})
    unknown = Client().post(RESET, {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["known@example.org"]


def test_the_mailed_link_sets_a_new_password(settings):
    settings.SITE_URL = "https://tabla.example.org/"
    user = UserFactory(username="known", email="known@example.org")
    Client().post(RESET, {"email": "known@example.org"})
    body = mail.outbox[0].body
    link = re.search(r"https://tabla\.example\.org(/accounts/reset/\S+)", body)
    assert link, body
    client = Client()
    form = client.get(link.group(1), follow=True)
    assert form.status_code == 200 and "new_password1" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": STRONG, "new_password2": STRONG}
    )
    assert done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(STRONG)
    again = Client().get(link.group(1), follow=True)
    assert "does not work any more" in again.content.decode()  # used


def test_resets_are_limited_per_address_and_mails_per_email(settings):
    settings.PASSWORD_RESET_LIMIT_IP_ATTEMPTS = 5
    settings.PASSWORD_RESET_LIMIT_EMAIL_ATTEMPTS = 2
    UserFactory(username="known", email="known@example.org")
    client = Client()
    statuses = [client.post(RESET, {"email": "known@example.org"}).status_code for _ in range(5)]
    assert statuses == [302] * 5 and len(mail.outbox) == 2  # the address got two, then none
    refused = client.post(RESET, {"email": "nobody@example.org"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_a_user_changes_their_password():
    user = UserFactory(username="known")
    user.set_password("old-password-77x")
    user.save()
    client = Client()
    client.force_login(user)
    assert client.get(reverse("password_change")).status_code == 200
    weak = client.post(
        reverse("password_change"),
        {"old_password": "old-password-77x", "new_password1": "1234", "new_password2": "1234"},
    )
    assert weak.status_code == 200 and "too short" in weak.content.decode()
    response = client.post(
        reverse("password_change"),
        {"old_password": "old-password-77x", "new_password1": STRONG, "new_password2": STRONG},
    )
    assert response["Location"] == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password(STRONG)


def test_the_password_change_needs_a_login():
    response = Client().get(reverse("password_change"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# --- the account page ---------------------------------------------------------------------------


def test_the_account_page_changes_the_name_club_and_email():
    player = PlayerFactory(user=UserFactory(username="ana"), display_name="Ana")
    club = ClubFactory(name="Bitola Tabla")
    client = Client()
    client.force_login(player.user)
    page = client.get(reverse("account")).content.decode()
    assert 'value="Ana"' in page and "Bitola Tabla" in page
    response = client.post(
        reverse("account"),
        {"display_name": "  Ana   Petrovska ", "club": club.pk, "email": "ana@example.org"},
    )
    assert response["Location"] == reverse("account") + "?saved=1"
    player.refresh_from_db()
    player.user.refresh_from_db()
    assert (player.display_name, player.club, player.user.email) == (
        "Ana Petrovska",
        club,
        "ana@example.org",
    )
    refused = client.post(reverse("account"), {"display_name": "", "email": "not-an-address"})
    assert refused.status_code == 200
    player.refresh_from_db()
    assert player.display_name == "Ana Petrovska"


def test_a_user_without_a_player_edits_the_email_only():
    user = UserFactory(username="organiser")
    client = Client()
    client.force_login(user)
    assert "display_name" not in client.get(reverse("account")).content.decode()
    client.post(reverse("account"), {"email": "org@example.org", "display_name": "Sneaky"})
    user.refresh_from_db()
    assert user.email == "org@example.org" and not Player.objects.filter(user=user).exists()


def test_the_account_page_needs_a_login():
    response = Client().get(reverse("account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# --- mail in production -------------------------------------------------------------------------


def production_settings(monkeypatch, **env: str) -> dict:
    """config.settings.production run afresh with a valid environment plus ``env``."""
    base = {
        "SECRET_KEY": get_random_secret_key(),
        "DATABASE_URL": "postgres://tabla:secret@127.0.0.1:5432/tabla",
        "ALLOWED_HOSTS": "tabla.example.org",
    }
    for name in ["EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS", "DEFAULT_FROM_EMAIL"]:
        monkeypatch.delenv(name, raising=False)
    for name, value in {**base, **env}.items():
        monkeypatch.setenv(name, value)
    return runpy.run_module("config.settings.production")


def test_production_sends_mail_through_the_smtp_server_of_the_environment(monkeypatch):
    configured = production_settings(
        monkeypatch,
        EMAIL_HOST="smtp.example.org",
        EMAIL_PORT="465",
        EMAIL_HOST_USER="tabla",
        EMAIL_HOST_PASSWORD="secret",
        EMAIL_USE_TLS="0",
        DEFAULT_FROM_EMAIL="Tabla <noreply@tabla.example.org>",
    )
    assert configured["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (configured["EMAIL_HOST"], configured["EMAIL_PORT"]) == ("smtp.example.org", 465)
    assert (configured["EMAIL_HOST_USER"], configured["EMAIL_HOST_PASSWORD"]) == ("tabla", "secret")
    assert configured["EMAIL_USE_TLS"] is False
    assert configured["DEFAULT_FROM_EMAIL"] == "Tabla <noreply@tabla.example.org>"
    unset = production_settings(monkeypatch)
    assert unset["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert unset["EMAIL_USE_TLS"] is True and unset["EMAIL_PORT"] == 587
