"""Claiming a player: an organiser hands a player without an account a claim code, and a user
without a player redeems it to make the record theirs; every refusal answers a clear 4xx."""

import datetime

import pytest
from auditlog.models import LogEntry
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from common.api.throttling import WriteRateThrottle
from games.models import Match
from players.models import ClaimCode, Player
from players.services import CLAIM_CODE_LIFETIME
from tests.games.factories import MatchFactory, UserFactory
from tests.tournaments.factories import ClubFactory, EntryFactory, TournamentFactory

pytestmark = pytest.mark.django_db

CLAIM = reverse("players:player-claim")


def code_url(player: Player) -> str:
    return reverse("players:claim-code", kwargs={"pk": player.pk})


@pytest.fixture
def ilija(club_players):
    return club_players[0]


@pytest.fixture
def issue(client_for, organiser):
    def make(player: Player) -> str:
        response = client_for(organiser).post(code_url(player))
        assert response.status_code == 201, response.json()
        return response.json()["code"]

    return make


def test_an_organiser_gets_a_code_that_expires_in_fourteen_days(client_for, organiser, ilija):
    before = timezone.now()
    response = client_for(organiser).post(code_url(ilija))
    assert response.status_code == 201
    body = response.json()
    assert body["player"] == ilija.pk
    assert len(body["code"]) == 19 and body["code"].count("-") == 3
    expires = datetime.datetime.fromisoformat(body["expires_at"].replace("Z", "+00:00"))
    assert before + CLAIM_CODE_LIFETIME <= expires <= timezone.now() + CLAIM_CODE_LIFETIME
    stored = ClaimCode.objects.get(player=ilija)
    assert body["code"] not in stored.code_hash and stored.created_by == organiser


def test_only_organisers_get_codes(client_for, staff, stranger, alice, ilija):
    assert client_for(None).post(code_url(ilija)).status_code == 401
    for user in (stranger, alice.user):
        response = client_for(user).post(code_url(ilija))
        assert response.status_code == 403 and "players.add_player" in response.json()["detail"]
    assert client_for(staff).post(code_url(ilija)).status_code == 201
    assert client_for(staff).post("/api/v1/players/999999/claim-code/").status_code == 404


def test_an_organiser_who_does_not_look_after_the_player_gets_no_code(
    client_for, organiser, stranger, ilija, issue
):
    """Issue 19: anyone who may add players could take anyone's player, voiding the real code.
    Only staff, whoever entered the player, and the organisers of a tournament the player
    entered or of one of their club hand out a code (docs/decisions.md D55)."""
    code = issue(ilija)
    elsewhere = UserFactory(username="elsewhere")
    elsewhere.user_permissions.add(Permission.objects.get(codename="add_player"))
    TournamentFactory(created_by=elsewhere, club=ClubFactory(name="Other Club"))
    response = client_for(elsewhere).post(code_url(ilija))
    assert response.status_code == 403
    assert "organisers of a tournament they entered or of their club" in response.json()["detail"]
    claimed = client_for(stranger).post(CLAIM, {"code": code}, format="json")
    assert claimed.status_code == 200, "the real code still works"


@pytest.mark.parametrize("how", ["entered", "club"])
def test_the_organisers_of_the_players_tournament_or_club_get_codes(client_for, club, ilija, how):
    co = UserFactory(username="co-organiser")
    co.user_permissions.add(Permission.objects.get(codename="add_player"))
    if how == "entered":
        elsewhere = TournamentFactory(club=ClubFactory(), organisers=[co])
        EntryFactory(player=ilija, tournament=elsewhere)
    else:
        TournamentFactory(club=club, organisers=[co])
    assert client_for(co).post(code_url(ilija)).status_code == 201


def test_each_code_handed_out_is_in_the_audit_log(client_for, organiser, staff, ilija, issue):
    issue(ilija)
    client_for(staff).post(code_url(ilija))
    logged = LogEntry.objects.filter(content_type__model="player", object_id=ilija.pk).order_by(
        "pk"
    )
    assert [(e.actor, e.changes_dict, e.additional_data["action"]) for e in logged] == [
        (organiser, {"claim_code": [None, "issued"]}, "claim_code"),
        (staff, {"claim_code": ["replaced", "issued"]}, "claim_code"),
    ]
    assert all("code_hash" not in str(e.changes) for e in logged)


def test_a_player_with_an_account_gets_no_code(client_for, organiser, alice):
    response = client_for(organiser).post(code_url(alice))
    assert response.status_code == 409 and "already has an account" in response.json()["detail"]
    assert not ClaimCode.objects.exists()


def test_a_user_without_a_player_claims_one_with_the_code(client_for, stranger, ilija, issue):
    code = issue(ilija)
    response = client_for(stranger).post(CLAIM, {"code": code}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["id"] == ilija.pk and response.json()["has_account"] is True
    ilija.refresh_from_db()
    assert ilija.user == stranger
    assert not ClaimCode.objects.exists()  # used up
    again = client_for(UserFactory()).post(CLAIM, {"code": code}, format="json")
    assert again.status_code == 400


def test_the_code_may_be_typed_in_small_letters_without_dashes(client_for, stranger, ilija, issue):
    typed = issue(ilija).replace("-", " ").lower()
    assert client_for(stranger).post(CLAIM, {"code": typed}, format="json").status_code == 200


@pytest.mark.parametrize("code", ["", "ABCD-EFGH-JKLM-NPQR", "x" * 64, "x" * 65])
def test_a_wrong_code_is_a_400(client_for, stranger, ilija, issue, code):
    issue(ilija)
    response = client_for(stranger).post(CLAIM, {"code": code}, format="json")
    assert response.status_code == 400
    ilija.refresh_from_db()
    assert ilija.user is None


def test_a_wrong_code_says_so(client_for, stranger):
    response = client_for(stranger).post(CLAIM, {"code": "ABCD-EFGH-JKLM-NPQR"}, format="json")
    assert response.json() == {"detail": "the claim code is wrong or has expired"}


def test_an_expired_code_is_a_400(client_for, stranger, ilija, issue):
    code = issue(ilija)
    ClaimCode.objects.update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    response = client_for(stranger).post(CLAIM, {"code": code}, format="json")
    assert response.status_code == 400 and "expired" in response.json()["detail"]


def test_a_new_code_replaces_the_old_one(client_for, stranger, ilija, issue):
    old, new = issue(ilija), issue(ilija)
    assert client_for(stranger).post(CLAIM, {"code": old}, format="json").status_code == 400
    assert client_for(stranger).post(CLAIM, {"code": new}, format="json").status_code == 200


def test_a_user_who_has_a_player_cannot_claim_another(client_for, alice, ilija, issue):
    response = client_for(alice).post(CLAIM, {"code": issue(ilija)}, format="json")
    assert response.status_code == 409
    assert response.json()["detail"] == f"you already have a player: player {alice.pk}"
    ilija.refresh_from_db()
    assert ilija.user is None


def test_a_player_who_got_an_account_meanwhile_cannot_be_claimed(
    client_for, stranger, ilija, issue
):
    code = issue(ilija)
    Player.objects.filter(pk=ilija.pk).update(user=UserFactory())  # e.g. linked in the admin
    response = client_for(stranger).post(CLAIM, {"code": code}, format="json")
    assert response.status_code == 409 and "already has an account" in response.json()["detail"]


def test_claiming_needs_a_login(client_for, ilija, issue):
    response = client_for(None).post(CLAIM, {"code": issue(ilija)}, format="json")
    assert response.status_code == 401


def test_the_claim_body_is_strict(client_for, stranger):
    assert client_for(stranger).post(CLAIM, {}, format="json").status_code == 400
    response = client_for(stranger).post(CLAIM, {"code": "A", "player": 1}, format="json")
    assert response.status_code == 400 and "player" in response.json()


def test_claims_are_throttled_as_writes(client_for, stranger, monkeypatch):
    """Guessing codes is slowed by the write throttle (THROTTLE_RATE_WRITES) as any write."""
    rates = {**WriteRateThrottle.THROTTLE_RATES, "writes": "3/minute"}
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", rates)
    client = client_for(stranger)
    statuses = [
        client.post(CLAIM, {"code": "ABCD-EFGH-JKLM-NPQR"}, format="json").status_code
        for _ in range(4)
    ]
    assert statuses == [400, 400, 400, 429]


def test_after_claiming_the_player_confirms_their_own_results(
    client_for, stranger, club_players, staff, issue
):
    """The organiser reported for them before; now the player answers their opponent."""
    ilija, marija = club_players
    match = MatchFactory(player_one=ilija, player_two=marija, organiser=staff)
    client_for(stranger).post(CLAIM, {"code": issue(marija)}, format="json")
    marija_user = stranger
    reported = client_for(marija_user).post(
        reverse("games:result-list", kwargs={"pk": match.pk}),
        {"winner": marija.pk, "points": 1},
        format="json",
    )
    assert reported.status_code == 201 and reported.json()["status"] == "pending"
    assert reported.json()["reporter"] == marija.pk
    assert Match.objects.get(pk=match.pk).score_two == 0  # ilija has no account to confirm
