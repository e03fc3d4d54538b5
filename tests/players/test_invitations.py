"""Invitations: a claim code as a link (/join/<code>/) with which a player entered by an
organiser signs up, or logs in, and takes their record in one step: the same Player row, with
its results and rating. Used, replaced or expired invitations take nobody; an account has one
player; only those who look after the player make one (D55); each use is audited (D87, D89)."""

import datetime
import io

import pytest
from auditlog.models import LogEntry
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from players import selectors
from players.models import ClaimCode, Player
from tests.games.factories import MatchFactory, UserFactory
from tests.tournaments.factories import ClubFactory, TournamentFactory

pytestmark = pytest.mark.django_db

STRONG = "tabla-gjul-42-bara"


@pytest.fixture
def ilija(club_players):
    player = club_players[0]
    Player.objects.filter(pk=player.pk).update(rating=1532.0, rating_games=14)
    player.refresh_from_db()
    return player


@pytest.fixture
def invite(client_for, organiser, settings):
    """The organiser makes an invitation through the desk's API call; its link's path."""

    def make(player: Player) -> str:
        response = client_for(organiser).post(reverse("players:claim-code", args=[player.pk]))
        assert response.status_code == 201, response.json()
        body = response.json()
        path = reverse("join", args=[body["code"]])
        assert body["invitation_url"] in ("http://testserver" + path, settings.SITE_URL[:-1] + path)
        assert body["invitation_url"].endswith(path)
        return path

    return make


def join(client: Client, path: str, **fields: str):
    data = {"username": "ilija", "email": "", "password1": STRONG, "password2": STRONG, **fields}
    return client.post(path, data)


def test_a_new_person_signs_up_through_the_invitation_and_keeps_the_record(ilija, invite):
    match = MatchFactory(player_one=ilija)
    path = invite(ilija)
    client = Client()
    page = client.get(path)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ilija Stojanov" in text and "rating 1532" in text and "Skopje Tabla Club" in text
    response = join(client, path)
    assert response.status_code == 302
    assert response["Location"] == reverse("web:player", args=[ilija.pk])
    user = User.objects.get(username="ilija")
    ilija.refresh_from_db()
    assert ilija.user == user and ilija.rating == 1532.0 and ilija.rating_games == 14
    assert Player.objects.filter(user=user).count() == 1  # the same row, no new player
    assert Match.objects.get(pk=match.pk).player_one_id == ilija.pk
    assert not ClaimCode.objects.exists()  # used up
    assert client.get(reverse("account")).status_code == 200  # logged in


def test_each_invitation_made_and_used_is_in_the_audit_log(ilija, invite, organiser):
    join(Client(), invite(ilija))
    logged = LogEntry.objects.filter(content_type__model="player", object_id=ilija.pk)
    entries = [(e.actor, e.changes_dict) for e in logged.order_by("pk")]
    user = User.objects.get(username="ilija")
    assert entries[0] == (organiser, {"claim_code": [None, "issued"]})
    assert entries[-1] == (user, {"claim_code": ["issued", "used"]})
    used = logged.order_by("pk").last()
    assert used.additional_data["issued_by"] == organiser.pk and used.timestamp is not None


def test_a_signed_in_user_without_a_player_takes_it_with_one_button(ilija, invite, stranger):
    path = invite(ilija)
    client = Client()
    client.force_login(stranger)
    assert "Take the record of Ilija Stojanov" in client.get(path).content.decode()
    response = client.post(path)
    assert response["Location"] == reverse("web:player", args=[ilija.pk])
    ilija.refresh_from_db()
    assert ilija.user == stranger


def test_logging_in_from_the_invitation_comes_back_to_it(ilija, invite, stranger):
    path = invite(ilija)
    page = Client().get(path).content.decode()
    assert f"{reverse('login')}?next={path}" in page


def test_a_user_who_has_a_player_cannot_take_a_second_one(ilija, invite, alice):
    path = invite(ilija)
    client = Client()
    client.force_login(alice.user)
    page = client.get(path).content.decode()
    assert "an account has one player only" in page and "Take the record" not in page
    response = client.post(path)
    assert response.status_code == 409 and "an account has one player only" in (
        response.content.decode()
    )
    ilija.refresh_from_db()
    assert ilija.user is None


def test_a_used_invitation_takes_nobody(ilija, invite):
    path = invite(ilija)
    join(Client(), path)
    again = Client()
    assert again.get(path).status_code == 404
    response = join(again, path, username="second")
    assert response.status_code == 404 and "does not work" in response.content.decode()
    assert not User.objects.filter(username="second").exists()


def test_an_expired_invitation_takes_nobody(ilija, invite):
    path = invite(ilija)
    ClaimCode.objects.update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert Client().get(path).status_code == 404
    response = join(Client(), path)
    assert response.status_code == 404
    assert not User.objects.filter(username="ilija").exists()
    ilija.refresh_from_db()
    assert ilija.user is None


def test_a_replaced_invitation_takes_nobody(ilija, invite):
    old, new = invite(ilija), invite(ilija)
    assert Client().get(old).status_code == 404
    assert join(Client(), new).status_code == 302


def test_a_wrong_invitation_is_a_404():
    assert Client().get(reverse("join", args=["ABCD-EFGH-JKLM-NPQR"])).status_code == 404
    assert Client().get(reverse("join", args=["x" * 80])).status_code == 404


def test_a_weak_password_through_the_invitation_makes_no_account(ilija, invite):
    response = join(Client(), invite(ilija), password1="12345678", password2="12345678")
    assert response.status_code == 200 and "too common" in response.content.decode()
    ilija.refresh_from_db()
    assert ilija.user is None and not User.objects.filter(username="ilija").exists()


def test_sign_ups_through_invitations_are_limited_per_address(ilija, invite, settings):
    settings.SIGNUP_LIMIT_IP_ATTEMPTS = 2
    path = invite(ilija)
    client = Client()
    for _ in range(2):
        join(client, path, password1="x", password2="x")
    refused = join(client, path)
    assert refused.status_code == 429 and "Retry-After" in refused
    ilija.refresh_from_db()
    assert ilija.user is None


def test_only_those_who_look_after_the_player_make_invitations(client_for, ilija, staff, alice):
    url = reverse("players:claim-code", args=[ilija.pk])
    elsewhere = UserFactory(username="elsewhere")
    elsewhere.user_permissions.add(Permission.objects.get(codename="add_player"))
    TournamentFactory(created_by=elsewhere, club=ClubFactory(name="Other Club"))
    assert client_for(None).post(url).status_code == 401
    assert client_for(alice.user).post(url).status_code == 403
    assert client_for(elsewhere).post(url).status_code == 403
    assert client_for(staff).post(url).status_code == 201


def test_the_organisers_invitation_page_shows_the_link_and_qr(ilija, invite, organiser, alice):
    page_url = reverse("invitation", args=[ilija.pk])
    client = Client()
    client.force_login(organiser)
    assert "no invitation that can be shown" in client.get(page_url).content.decode()
    path = invite(ilija)
    page = client.get(page_url).content.decode()
    assert f"http://testserver{path}" in page and "<svg" in page
    other = Client()
    other.force_login(alice.user)
    assert other.get(page_url).status_code == 404


def test_the_invitation_link_is_shown_again_only_while_it_is_good(ilija, invite, settings):
    settings.SITE_URL = "https://tabla.example.org/"
    path = invite(ilija)
    assert ClaimCode.objects.count() == 1
    template = Template(
        "{% load invitations tabla %}{% invitation_path player as path %}"
        "{% if path %}{% site_address path %}{% endif %}"
    )
    assert template.render(Context({"player": ilija})) == "https://tabla.example.org" + path
    stored = ClaimCode.objects.get(player=ilija)
    assert path.split("/")[2] not in stored.code_hash + stored.nonce  # not stored in clear
    join(Client(), path)
    ilija.refresh_from_db()
    assert template.render(Context({"player": ilija})) == ""
    assert selectors.invitation_code(ilija) is None


def test_the_claim_page_takes_the_invitations_link(ilija, invite, client_for, stranger):
    path = invite(ilija)
    code = path.split("/")[2]
    response = client_for(stranger).post(
        reverse("players:player-claim"), {"code": "https://tabla.example.org" + path}, format="json"
    )
    assert response.status_code == 200
    assert Client().get(reverse("join", args=[code])).status_code == 404


def test_demo_setup_prints_an_invitation_link_that_works():
    output = io.StringIO()
    call_command("demo_setup", stdout=output)
    line = next(x for x in output.getvalue().splitlines() if "invitation" in x)
    path = "/join/" + line.split("/join/")[1].split("/")[0] + "/"
    invited = Player.objects.get(display_name="Petar Angelov")
    assert invited.user is None and Match.objects.filter(player_one=invited).exists()
    again = io.StringIO()
    call_command("demo_setup", stdout=again)
    assert path in again.getvalue()  # the same link while it is good
    assert join(Client(), path, username="petar")["Location"] == reverse(
        "web:player", args=[invited.pk]
    )
