"""The organisers' admin: every page opens for a superuser, and each action and save runs the
tournament service under the signed-in user (audit log), reporting success or the service's
error as a message."""

from __future__ import annotations

from typing import Any

import pytest
from auditlog.models import LogEntry
from django.test import Client
from django.urls import reverse

from games.models import RatingHistory
from players.models import Club, Player, VariantRating
from tests.tournaments.factories import EntryFactory, TournamentFactory
from tests.tournaments.helpers import play_all, tournament_running
from tournaments.models import Entry, Round, Standing, Tournament, TournamentMatch

MODELS = [Club, Player, Tournament, Entry, Round, TournamentMatch, Standing, RatingHistory,
          VariantRating]  # fmt: skip


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.com", "password")


@pytest.fixture
def admin_client(superuser) -> Client:
    client = Client()
    client.force_login(superuser)
    return client


@pytest.fixture
def played_cup(org_api, players) -> Tournament:
    """A finished 4-player cup: entries, a round per match, standings and ratings to show."""
    pk = tournament_running(org_api, players[:4], format="single_elimination")["id"]
    play_all(org_api, pk)
    return Tournament.objects.get(pk=pk)


def admin_url(model: type, view: str, *args: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def act(client: Client, action: str, *rows: Any, model: type = Tournament) -> list[str]:
    """POST an action for ``rows`` to the changelist; the messages it reported."""
    data = {"action": action, "_selected_action": [row.pk for row in rows]}
    response = client.post(admin_url(model, "changelist"), data, follow=True)
    assert response.status_code == 200
    return [str(message) for message in response.context["messages"]]


def last_action(tournament: Tournament) -> LogEntry:
    return LogEntry.objects.filter(additional_data__tournament=tournament.pk).latest("id")


@pytest.mark.django_db
@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_changelist_and_changeform_open_for_a_superuser(admin_client, played_cup, model):
    assert admin_client.get(admin_url(model, "changelist")).status_code == 200
    assert admin_client.get(admin_url(model, "changelist"), {"q": "P1"}).status_code == 200
    row = model.objects.first()
    assert row is not None, f"no {model.__name__} to open"
    assert admin_client.get(admin_url(model, "change", row.pk)).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("model", [Club, Player, Tournament, Entry], ids=lambda m: m.__name__)
def test_add_form_opens(admin_client, model):
    assert admin_client.get(admin_url(model, "add")).status_code == 200


@pytest.mark.django_db
def test_open_registration_action_calls_the_service_as_the_signed_in_user(admin_client, superuser):
    draft = TournamentFactory(status=Tournament.Status.DRAFT, registration_open=False)
    messages = act(admin_client, "registration_open_action", draft)
    assert messages == [f"{draft}: registration opened."]
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.REGISTRATION and draft.registration_open
    entry = last_action(draft)
    assert entry.actor == superuser and entry.additional_data["action"] == "registration_open"


@pytest.mark.django_db
def test_close_registration_action(admin_client):
    tournament = TournamentFactory()
    assert act(admin_client, "registration_close_action", tournament) == [
        f"{tournament}: registration closed."
    ]
    tournament.refresh_from_db()
    assert not tournament.registration_open


@pytest.mark.django_db
def test_seed_action_seeds_by_rating(admin_client, players):
    tournament = TournamentFactory()
    for player in reversed(players[:3]):
        EntryFactory(tournament=tournament, player=player)
    assert act(admin_client, "seed_action", tournament) == [f"{tournament}: entries seeded."]
    seeds = dict(tournament.entries.values_list("player__display_name", "seed"))
    assert seeds == {"P1": 1, "P2": 2, "P3": 3}


@pytest.mark.django_db
def test_start_action_draws_the_first_matches(admin_client, players):
    tournament = TournamentFactory()
    for player in players[:4]:
        EntryFactory(tournament=tournament, player=player)
    messages = act(admin_client, "start_action", tournament)
    assert messages == [f"{tournament}: started, the first matches are drawn."]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.matches.filter(status=TournamentMatch.Status.READY).count() == 2


@pytest.mark.django_db
def test_start_action_reports_the_service_error_and_changes_nothing(admin_client, players):
    lonely = TournamentFactory()
    EntryFactory(tournament=lonely, player=players[0])
    ready = TournamentFactory()
    for player in players[1:3]:
        EntryFactory(tournament=ready, player=player)
    messages = act(admin_client, "start_action", lonely, ready)
    assert f"{lonely}: a tournament needs at least 2 entries, not 1" in messages
    assert f"{ready}: started, the first matches are drawn." in messages
    lonely.refresh_from_db()
    assert lonely.status == Tournament.Status.REGISTRATION and not lonely.matches.exists()


@pytest.mark.django_db
def test_pair_round_action_pairs_the_next_swiss_round(admin_client, org_api, players):
    pk = tournament_running(org_api, players[:4], format="swiss", swiss_rounds=2)["id"]
    swiss = Tournament.objects.get(pk=pk)
    assert act(admin_client, "pair_round_action", swiss) == [
        f"{swiss}: round 1 is not finished: R1-1, R1-2"
    ]
    play_all(org_api, pk)
    assert act(admin_client, "pair_round_action", swiss) == [f"{swiss}: next round paired."]
    swiss.refresh_from_db()
    assert swiss.current_round == 2 and swiss.rounds.count() == 2


@pytest.mark.django_db
def test_pair_round_action_after_the_last_round_says_the_tournament_is_finished(
    admin_client, org_api, players
):
    pk = tournament_running(org_api, players[:4], format="swiss", swiss_rounds=2)["id"]
    swiss = Tournament.objects.get(pk=pk)
    play_all(org_api, pk)
    act(admin_client, "pair_round_action", swiss)
    play_all(org_api, pk)
    assert act(admin_client, "pair_round_action", swiss) == [
        f"{swiss}: all 2 rounds are paired and played: the tournament is finished"
    ]


@pytest.mark.django_db
def test_pair_round_action_refuses_a_bracket(admin_client, played_cup):
    assert act(admin_client, "pair_round_action", played_cup) == [
        f"{played_cup}: only Swiss rounds are paired on demand, not single_elimination"
    ]


@pytest.mark.django_db
def test_a_refused_status_is_said_in_plain_words(admin_client, played_cup):
    assert act(admin_client, "seed_action", played_cup) == [
        f"{played_cup}: the tournament is finished; "
        "this can be done only while it is a draft or in registration"
    ]


@pytest.mark.django_db
def test_recompute_standings_action(admin_client, played_cup):
    Standing.objects.filter(tournament=played_cup).delete()
    messages = act(admin_client, "standings_recompute_action", played_cup)
    assert messages == [f"{played_cup}: standings recomputed."]
    assert Standing.objects.filter(tournament=played_cup).count() == 4


@pytest.mark.django_db
def test_tournament_added_in_the_admin_is_created_by_the_service(admin_client, superuser):
    data = {
        "name": "Admin Cup", "format": "swiss", "match_length": 3, "match_mode": "online",
        "options": "", "tiebreak_order": "[]", "consolation_rounds": 1, "groups": 1,
        "knockout_per_group": 0, "bye_points": 1.0, "late_entry_until_round": 0,
        "seed_method": "rating", "organisers": [superuser.pk],
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0,
        "rounds-TOTAL_FORMS": 0, "rounds-INITIAL_FORMS": 0,
    }  # fmt: skip
    response = admin_client.post(admin_url(Tournament, "add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    tournament = Tournament.objects.get(name="Admin Cup")
    assert tournament.created_by == superuser and tournament.status == Tournament.Status.DRAFT
    assert tournament.options["cycle"]  # empty options: the engine's defaults
    assert last_action(tournament).additional_data["action"] == "create"


@pytest.mark.django_db
def test_bad_options_are_a_form_error(admin_client, superuser):
    data = {"name": "Bad", "format": "swiss", "options": '{"nonsense": 1}'}
    response = admin_client.post(admin_url(Tournament, "add"), data)
    assert response.status_code == 200
    assert "nonsense" in str(response.context["adminform"].form.errors["options"])
    assert not Tournament.objects.filter(name="Bad").exists()


@pytest.mark.django_db
def test_running_tournament_settings_are_read_only(admin_client, played_cup):
    response = admin_client.get(admin_url(Tournament, "change", played_cup.pk))
    assert list(response.context["adminform"].form.fields) == ["organisers"]


@pytest.mark.django_db
def test_entry_added_in_the_admin_is_registered_by_the_service(admin_client, players):
    tournament = TournamentFactory()
    data = {"tournament": tournament.pk, "player": players[0].pk}
    assert admin_client.post(admin_url(Entry, "add"), data).status_code == 302
    assert tournament.entries.get().player == players[0]
    assert last_action(tournament).additional_data["action"] == "register"


@pytest.mark.django_db
def test_entry_into_a_closed_registration_is_refused_with_a_message(admin_client, players):
    tournament = TournamentFactory(registration_open=False)
    data = {"tournament": tournament.pk, "player": players[0].pk}
    response = admin_client.post(admin_url(Entry, "add"), data, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["registration is closed"]
    assert not tournament.entries.exists()


@pytest.mark.django_db
def test_entry_check_in_and_withdraw_actions(admin_client, players):
    entry = EntryFactory(tournament=TournamentFactory(), player=players[0])
    assert act(admin_client, "check_in_action", entry, model=Entry) == [f"{entry}: checked in."]
    assert act(admin_client, "withdraw_action", entry, model=Entry) == [f"{entry}: withdrawn."]
    assert act(admin_client, "withdraw_action", entry, model=Entry) == [
        f"{entry}: the entry is already withdrawn"
    ]
    entry.refresh_from_db()
    assert entry.checked_in and entry.status == Entry.Status.WITHDRAWN


@pytest.mark.django_db
def test_round_deadline_is_set_through_the_service(admin_client, played_cup, superuser):
    round_ = played_cup.rounds.first()
    data = {"deadline_0": "2030-01-02", "deadline_1": "18:00:00"}
    assert admin_client.post(admin_url(Round, "change", round_.pk), data).status_code == 302
    round_.refresh_from_db()
    assert round_.deadline is not None and round_.deadline.year == 2030
    audit = last_action(played_cup)
    assert audit.actor == superuser and audit.additional_data["action"] == "round_deadline"
