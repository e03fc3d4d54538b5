"""The migration that brings in rated matches and tournaments keeps existing results counting,
except matches a plain user created or imported between two other players."""

import pytest

from tests.tournaments.helpers import migrate_to, migrate_to_latest

BEFORE = [("games", "0004_game_cube"), ("tournaments", "0002_tournaments")]
AFTER = [("games", "0005_match_trust"), ("tournaments", "0003_tournament_rated")]


migrate = migrate_to


@pytest.fixture
def latest_schema_after():
    """The tests after this one need every migration applied again (OwedTask's table, ...)."""
    yield
    migrate_to_latest()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_existing_matches_keep_counting_unless_a_plain_user_made_them_for_others():
    old = migrate(BEFORE)
    User = old.get_model("auth", "User")
    Player = old.get_model("tournaments", "Player")
    Tournament = old.get_model("tournaments", "Tournament")
    TournamentMatch = old.get_model("tournaments", "TournamentMatch")
    Match = old.get_model("games", "Match")
    users = {name: User.objects.create(username=name) for name in ("ana", "boris", "meddler")}
    staff = User.objects.create(username="staff", is_staff=True)
    ana, boris = (Player.objects.create(user=users[n], display_name=n) for n in ("ana", "boris"))

    def match(organiser, mode="online"):
        return Match.objects.create(player_one=ana, player_two=boris, organiser=organiser,
                                    mode=mode, status="finished", options={})  # fmt: skip

    own = match(None)  # a player created it (and the opponent played or confirmed)
    by_staff = match(staff)
    meddled = match(users["meddler"])
    imported_by_player = match(users["meddler"], mode="imported")
    imported_by_staff = match(staff, mode="imported")
    cup = Tournament.objects.create(name="Cup", created_by=users["meddler"], format="swiss")
    in_cup = match(users["meddler"])
    TournamentMatch.objects.create(tournament=cup, key="R1-1", round=1, index=1, match=in_cup)

    new = migrate(AFTER)
    rated = dict(new.get_model("games", "Match").objects.values_list("pk", "rated"))
    creators = dict(new.get_model("games", "Match").objects.values_list("pk", "created_by"))

    assert rated == {
        own.pk: True,
        by_staff.pk: True,
        meddled.pk: False,
        imported_by_player.pk: False,
        imported_by_staff.pk: True,
        in_cup.pk: True,
    }
    assert new.get_model("tournaments", "Tournament").objects.get(pk=cup.pk).rated
    assert creators[by_staff.pk] == staff.pk and creators[own.pk] is None
