"""Notifications (docs/decisions.md D115, D116): the events make one notification each, and one
e-mail for a match ready and a result to confirm (only with an address and the switch on); the
page and the API list a user's own, newest first, a page at a time; read and mark-read."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games import services
from games.models import Match, Notification, OwedTask
from games.services._steps import notifications_add
from games.services.report_codes import Slip
from tests.games.factories import MatchFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

READY = Notification.Kind.MATCH_READY
CONFIRM = Notification.Kind.RESULT_TO_CONFIRM
CHALLENGE = Notification.Kind.CHALLENGE_RECEIVED


@pytest.fixture
def alice(alice):
    alice.user.email = "alice@example.org"
    alice.user.save()
    return alice


@pytest.fixture
def bob(bob):
    bob.user.email = "bob@example.org"
    bob.user.save()
    return bob


def told(player, kind=None) -> list[Notification]:
    rows = Notification.objects.filter(recipient=player.user)
    return list(rows.filter(kind=kind) if kind else rows)


def mails_to(address: str) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if address in message.to]


def web_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- the events --------------------------------------------------------------------------------


def test_a_match_opened_by_an_organiser_tells_both_players_once_and_mails_them(
    alice, bob, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_create(creator=organiser, player_one=alice, player_two=bob)

    for player in (alice, bob):
        (notification,) = told(player)
        assert (notification.kind, notification.match_id) == (READY, match.pk)
        assert notification.read_at is None and notification.emailed_at is not None
    assert len(mail.outbox) == 2
    (to_alice,) = mails_to("alice@example.org")
    assert "Bob" in to_alice.subject and f"/matches/{match.pk}/" in to_alice.body
    assert "/accounts/" in to_alice.body  # where to switch them off


def test_a_tournament_draw_in_bulk_tells_every_player_but_the_organiser(
    alice, bob, organiser, django_capture_on_commit_callbacks
):
    carol, dave = PlayerFactory(), PlayerFactory(user=None)
    with django_capture_on_commit_callbacks(execute=True):
        matches = services.matches_create_many(
            creator=organiser, organiser=organiser, pairs=[(alice, bob), (carol, dave)]
        )
    assert [n.match_id for n in told(alice)] == [matches[0].pk]
    assert [n.match_id for n in told(carol)] == [matches[1].pk]
    assert Notification.objects.count() == 3  # dave has no account
    assert len(mail.outbox) == 2  # carol has no address


def test_a_taken_open_challenge_tells_the_poster_not_the_taker(
    alice, bob, django_capture_on_commit_callbacks
):
    challenge = services.open_challenge_post(user=alice.user)
    with django_capture_on_commit_callbacks(execute=True):
        match = services.open_challenge_take(challenge=challenge, user=bob.user)

    assert [(n.kind, n.match_id) for n in told(alice)] == [(READY, match.pk)]
    assert told(bob) == []
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]


def test_a_direct_challenge_is_told_and_its_acceptance_tells_the_challenger(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_propose(user=alice.user, player_one=alice, player_two=bob)
    (challenge,) = told(bob)
    assert challenge.kind == CHALLENGE and challenge.read_at is None
    assert mail.outbox == []  # a challenge is told on the site only

    with django_capture_on_commit_callbacks(execute=True):
        services.match_accept(match=match, user=bob.user)

    assert [n.kind for n in told(alice)] == [READY]
    assert [n.kind for n in told(bob)] == [CHALLENGE]  # nothing new for who accepted
    challenge.refresh_from_db()
    assert challenge.read_at is not None  # answered: no longer unread
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]


def test_a_result_awaiting_confirmation_is_told_once_to_the_opponent(
    alice, bob, organiser, django_capture_on_commit_callbacks
):
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        report = services.result_report(match=match, user=alice.user, winner=alice, points=1)

    (notification,) = told(bob)
    assert (notification.kind, notification.report_id) == (CONFIRM, report.pk)
    assert told(alice) == []
    (message,) = mail.outbox
    assert message.to == ["bob@example.org"] and "Alice" in message.subject

    services.result_confirm(report=report, user=bob.user)
    notification.refresh_from_db()
    assert notification.read_at is not None

    with django_capture_on_commit_callbacks(execute=True):
        second = services.result_report(match=match, user=bob.user, winner=bob, points=1)
    assert [n.report_id for n in told(alice, CONFIRM)] == [second.pk]
    assert len(mail.outbox) == 2


def test_an_organisers_report_counts_at_once_and_tells_nobody(alice, bob, organiser):
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    services.result_report(match=match, user=organiser, winner=alice, points=1)
    assert Notification.objects.count() == 0


def test_a_score_reported_with_a_slip_code_tells_the_signed_in_opponent(
    alice, bob, organiser, django_capture_on_commit_callbacks
):
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    codes = services.report_codes_issue(user=organiser, slips=[Slip(match.pk)])
    alices = next(code for code in codes if code.player_id == alice.pk)
    with django_capture_on_commit_callbacks(execute=True):
        report = services.result_report_by_code(code=alices.code, score_one=5, score_two=2)
    assert [(n.kind, n.report_id) for n in told(bob)] == [(CONFIRM, report.pk)]
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]


def test_the_same_event_is_never_told_twice(alice, bob, organiser):
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    notifications_add(READY, [(alice.user_id, match.pk, None)])
    notifications_add(READY, [(alice.user_id, match.pk, None)] * 2)
    assert Notification.objects.count() == 1


def test_no_mail_without_an_address_or_with_the_switch_off(
    alice, bob, organiser, django_capture_on_commit_callbacks
):
    alice.user.email = ""
    alice.user.save()
    bob.email_match_ready = False
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        services.match_create(creator=organiser, player_one=alice, player_two=bob)
    assert len(told(alice)) == 1 and len(told(bob)) == 1  # told on the site all the same
    assert mail.outbox == []


def test_the_result_switch_is_its_own(alice, bob, organiser, django_capture_on_commit_callbacks):
    bob.email_result_to_confirm = False
    bob.save()
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        services.result_report(match=match, user=alice.user, winner=alice, points=1)
    assert len(told(bob, CONFIRM)) == 1 and mail.outbox == []


def test_a_mail_is_sent_once_even_if_its_task_runs_twice(alice, bob, organiser):
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    notifications_add(READY, [(alice.user_id, match.pk, None)])
    assert services.notifications_email(kind=READY, match_ids=[match.pk]) == 1
    assert services.notifications_email(kind=READY, match_ids=[match.pk]) == 0
    assert len(mail.outbox) == 1


def test_a_failed_send_gives_the_mail_back_and_the_task_is_owed(
    alice, bob, organiser, monkeypatch, django_capture_on_commit_callbacks
):
    def refuse(*args, **kwargs):
        raise OSError("SMTP down")

    monkeypatch.setattr("games.services.notifications.send_mail", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_create(creator=organiser, player_one=alice, player_two=bob)
    assert Match.objects.filter(pk=match.pk).exists()  # the write stands
    assert all(n.emailed_at is None for n in Notification.objects.all())
    (owed,) = OwedTask.objects.all()
    assert owed.task == "games.tasks.notifications_email"

    monkeypatch.undo()
    services.notifications_email(kind=owed.args[0], match_ids=owed.args[1])
    assert len(mail.outbox) == 2


def test_the_mail_is_in_the_recipients_language(alice, bob, organiser, monkeypatch):
    seen = []

    def render(name, context):
        seen.append(translation.get_language())
        return "text"

    monkeypatch.setattr("games.services.notifications.render_to_string", render)
    alice.language = "mk"
    alice.save()
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    notifications_add(READY, [(alice.user_id, match.pk, None)])
    services.notifications_email(kind=READY, match_ids=[match.pk])
    assert seen == ["mk", "mk"]


# --- the page and the API ----------------------------------------------------------------------


def notify_many(player, count: int) -> list[Match]:
    matches = [MatchFactory(player_one=player) for _ in range(count)]
    notifications_add(READY, [(player.user_id, match.pk, None) for match in matches])
    return matches


def test_the_page_lists_your_own_newest_first_with_the_unread_marked(alice, bob, organiser):
    first, second = notify_many(alice, 2)
    notify_many(bob, 1)
    Notification.objects.filter(match=first).update(read_at="2026-01-01T00:00Z")

    page = web_client(alice.user).get(reverse("web:notifications"))

    assert page.status_code == 200
    rows = page.context["rows"]
    assert [row["n"].match_id for row in rows] == [second.pk, first.pk]
    html = page.content.decode()
    assert html.count('class="notification unread"') == 1
    assert reverse("web:notification-open", args=[rows[0]["n"].pk]) in html
    assert "data-notifications-link" in html  # the header's link


def test_the_page_needs_a_sign_in(client):
    response = client.get(reverse("web:notifications"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_opening_a_notification_reads_it_and_goes_to_its_match(alice, bob):
    (match,) = notify_many(alice, 1)
    notification = Notification.objects.get(recipient=alice.user)
    client = web_client(alice.user)

    response = client.get(reverse("web:notification-open", args=[notification.pk]))

    assert response.status_code == 302
    assert response["Location"] == reverse("web:match", args=[match.pk])
    notification.refresh_from_db()
    assert notification.read_at is not None


def test_nobody_opens_or_reads_anothers_notification(alice, bob):
    notify_many(alice, 1)
    notification = Notification.objects.get(recipient=alice.user)
    client = web_client(bob.user)

    assert client.get(reverse("web:notification-open", args=[notification.pk])).status_code == 404
    client.post(reverse("web:notifications-read"))
    notification.refresh_from_db()
    assert notification.read_at is None
    assert services.notifications_read(user=bob.user, notification=notification.pk) == 0
    assert client.get(reverse("web:notifications")).context["rows"] == []


def test_mark_all_read(alice, bob):
    notify_many(alice, 3)
    notify_many(bob, 1)
    response = web_client(alice.user).post(reverse("web:notifications-read"))
    assert response.status_code == 302
    assert not Notification.objects.filter(recipient=alice.user, read_at__isnull=True).exists()
    assert Notification.objects.filter(recipient=bob.user, read_at__isnull=True).count() == 1


def test_the_page_is_paginated(alice):
    notify_many(alice, 30)
    client = web_client(alice.user)
    first = client.get(reverse("web:notifications"))
    second = client.get(reverse("web:notifications") + "?page=2")
    assert len(first.context["rows"]) == 25 and len(second.context["rows"]) == 5
    assert 'rel="next"' in first.content.decode() and 'rel="prev"' in second.content.decode()


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=user)
    return client


def test_the_api_lists_only_your_own(alice, bob):
    (match,) = notify_many(alice, 1)
    notify_many(bob, 2)

    body = api_client(alice.user).get(reverse("games:notification-list")).json()

    assert body["count"] == 1
    (item,) = body["results"]
    assert item["kind"] == "match_ready" and item["match"] == match.pk
    assert item["read_at"] is None and item["report"] is None
    assert APIClient().get(reverse("games:notification-list")).status_code in (401, 403)


def test_the_api_marks_all_read(alice):
    notify_many(alice, 2)
    response = api_client(alice.user).post(reverse("games:notifications-read"))
    assert response.status_code == 200 and response.json() == {"marked": 2}


def test_the_ping_counts_the_unread(alice):
    notify_many(alice, 2)
    body = web_client(alice.user).get(reverse("web:lobby-ping")).json()
    assert body["unread"] == 2


def queries(callable_) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = callable_()
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize("view", ["page", "api"])
def test_the_list_costs_the_same_queries_for_1_and_30(view, alice, bob):
    client = web_client(alice.user) if view == "page" else api_client(alice.user)
    url = reverse("web:notifications" if view == "page" else "games:notification-list")
    notify_many(alice, 1)
    one = queries(lambda: client.get(url))
    notify_many(alice, 29)
    thirty = queries(lambda: client.get(url))
    assert one == thirty, (one, thirty)


# --- the account's switches --------------------------------------------------------------------


def test_the_account_page_shows_and_saves_the_switches(alice):
    client = web_client(alice.user)
    page = client.get(reverse("account")).content.decode()
    assert 'name="email_match_ready"' in page and 'name="email_result_to_confirm"' in page
    assert reverse("web:notifications") in page

    response = client.post(
        reverse("account"),
        {"display_name": "Alice", "email": "alice@example.org", "email_result_to_confirm": "on"},
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert not alice.email_match_ready and alice.email_result_to_confirm


def test_the_switches_are_on_for_a_new_player(db):
    player = PlayerFactory(user=UserFactory())
    assert player.email_match_ready and player.email_result_to_confirm
