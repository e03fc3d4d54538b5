"""The lobby (open challenges, direct challenges, who is online) and "Your matches" on the home
page, through Django's test client: what each user sees, what the forms create, and that the
pages read a constant number of queries however many challenges and matches there are."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import selectors, services
from games.models import Match, OpenChallenge
from tests.games.factories import PlayerFactory
from tests.web.helpers import logged_in

pytestmark = pytest.mark.django_db

LOBBY = reverse("web:lobby")
HOME = reverse("web:home")


def html(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_lobby_lists_open_challenges_newest_first_with_take_and_withdraw(alice, bob):
    older = services.open_challenge_post(user=bob.user, target_score=3)
    newer = services.open_challenge_post(user=PlayerFactory(display_name="Carol").user)
    page = html(logged_in(alice), LOBBY)
    assert page.index(f'data-challenge-row="{newer.pk}"') < page.index(
        f'data-challenge-row="{older.pk}"'
    )
    assert reverse("web:challenge-take", kwargs={"pk": older.pk}) in page
    assert "expires in 23\u00a0hours" in page  # timeuntil: a no-break space
    own = html(logged_in(bob), LOBBY)
    assert reverse("web:challenge-withdraw", kwargs={"pk": older.pk}) in own
    assert reverse("web:challenge-take", kwargs={"pk": older.pk}) not in own
    anonymous = html(Client(), LOBBY)
    assert "Carol" in anonymous and "/take/" not in anonymous and 'name="rules"' not in anonymous


def test_the_post_form_creates_an_open_challenge(alice):
    client = logged_in(alice)
    response = client.post(
        reverse("web:challenge-post"),
        {"rules": "bulgarian_nit", "match_length": "7", "clock": "standard"},
    )
    assert response.status_code == 302 and response["Location"] == LOBBY
    challenge = OpenChallenge.objects.get()
    assert challenge.created_by == alice and challenge.target_score == 7
    assert challenge.preset == "bulgarian_nit" and challenge.clock["preset"] == "standard"
    assert not challenge.rated  # the box was not ticked
    assert "Your challenge is on the lobby." in html(client, LOBBY)


def test_a_bad_form_shows_the_error_and_creates_nothing(alice):
    client = logged_in(alice)
    client.post(reverse("web:challenge-post"), {"rules": "nope", "match_length": "5"})
    assert not OpenChallenge.objects.exists()
    assert 'role="alert"' in html(client, LOBBY)


def test_taking_creates_a_started_match_and_opens_it(alice, bob):
    challenge = services.open_challenge_post(user=alice.user)
    response = logged_in(bob).post(reverse("web:challenge-take", kwargs={"pk": challenge.pk}))
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("web:match", kwargs={"pk": match.pk})
    assert match.status == Match.Status.IN_PROGRESS and match.player_two == bob
    second = logged_in(PlayerFactory()).post(
        reverse("web:challenge-take", kwargs={"pk": challenge.pk})
    )
    assert second["Location"] == LOBBY and Match.objects.count() == 1


def test_signed_out_forms_go_to_the_log_in(alice):
    challenge = services.open_challenge_post(user=alice.user)
    response = Client().post(reverse("web:challenge-take", kwargs={"pk": challenge.pk}))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_withdraw_from_the_lobby(alice):
    challenge = services.open_challenge_post(user=alice.user)
    logged_in(alice).post(reverse("web:challenge-withdraw", kwargs={"pk": challenge.pk}))
    challenge.refresh_from_db()
    assert challenge.status == OpenChallenge.Status.WITHDRAWN


def test_a_direct_challenge_from_a_players_page_and_its_answers(alice, bob):
    assert reverse("web:player-challenge", kwargs={"pk": bob.pk}) in html(
        logged_in(alice), reverse("web:player", kwargs={"pk": bob.pk})
    )
    assert "data-challenge-link" not in html(
        logged_in(bob), reverse("web:player", kwargs={"pk": bob.pk})
    )
    url = reverse("web:player-challenge", kwargs={"pk": bob.pk})
    assert 'name="match_length"' in html(logged_in(alice), url)
    response = logged_in(alice).post(url, {"rules": "macedonian", "match_length": "3"})
    match = Match.objects.get()
    assert response["Location"] == reverse("web:match", kwargs={"pk": match.pk})
    assert match.status == Match.Status.INVITED and match.target_score == 3

    assert f'data-sent="{match.pk}"' in html(logged_in(alice), LOBBY)
    for_bob = html(logged_in(bob), LOBBY)
    assert f'data-received="{match.pk}"' in for_bob
    assert reverse("web:challenge-accept", kwargs={"pk": match.pk}) in for_bob

    # Nobody accepts a challenge addressed to someone else, the challenger included.
    for other in (alice, PlayerFactory()):
        logged_in(other).post(reverse("web:challenge-accept", kwargs={"pk": match.pk}))
        match.refresh_from_db()
        assert match.status == Match.Status.INVITED
    logged_in(bob).post(reverse("web:challenge-accept", kwargs={"pk": match.pk}))
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS and match.rated


def test_decline_from_the_lobby(alice, bob):
    match = services.match_propose(user=alice.user, player_one=alice, player_two=bob)
    logged_in(bob).post(reverse("web:challenge-decline", kwargs={"pk": match.pk}))
    match.refresh_from_db()
    assert match.status == Match.Status.DECLINED


def test_who_is_online_is_who_pinged(alice, bob):
    ping = reverse("web:lobby-ping")
    assert logged_in(alice).get(ping).json() == {"awaiting": 0, "unread": 0}
    page = html(Client(), LOBBY)
    assert "Alice" in page and "Bob" not in page and "1 player online" in page


def test_home_shows_your_turn_to_the_player_to_move_and_nothing_signed_out(online_match):
    game = online_match.games.get()
    mover = selectors.player_to_move(game)
    one, two = online_match.players
    waiting = two if mover == one else one
    for_mover = html(logged_in(mover), HOME)
    assert 'id="your-matches"' in for_mover and 'data-waiting="turn"' in for_mover
    assert "Your turn" in for_mover
    for_other = html(logged_in(waiting), HOME)
    assert 'id="your-matches"' in for_other and 'data-waiting="turn"' not in for_other
    signed_out = html(Client(), HOME)
    assert 'id="your-matches"' not in signed_out and "data-awaiting-badge" not in signed_out
    assert logged_in(mover).get(reverse("web:lobby-ping")).json() == {"awaiting": 1, "unread": 1}


def test_home_names_the_next_tournament_match_with_round_and_table(alice, bob):
    from tests.tournaments.factories import EntryFactory, TournamentFactory
    from tournaments import services as tournament_services

    tournament = TournamentFactory(name="Spring Cup")
    for player in (alice, bob):
        EntryFactory(tournament=tournament, player=player)
    tournament_services.tournament_start(tournament=tournament, user=tournament.created_by)
    page = html(logged_in(alice), HOME)
    assert "data-next-tournament-match" in page and "Spring Cup" in page
    assert "round 1" in page and "table 1" in page

    # The match page names its tournament, round and table and links back to the tournament.
    match = Match.objects.get()
    page = html(Client(), reverse("web:match", kwargs={"pk": match.pk}))
    place = page.split("data-match-place>")[1].split("</span>")[0]
    assert "Spring Cup" in place and "round 1" in place and "table 1" in place
    assert reverse("tournaments_web:tournament", kwargs={"pk": tournament.pk}) in place


def test_a_match_of_no_tournament_names_no_place(online_match):
    assert "data-match-place" not in html(
        Client(), reverse("web:match", kwargs={"pk": online_match.pk})
    )


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        html(client, url)
    return len(captured)


def test_the_lobby_and_home_read_a_constant_number_of_queries(alice, bob):
    client = logged_in(alice)

    def grow() -> None:
        poster = PlayerFactory()
        services.open_challenge_post(user=poster.user)
        services.match_propose(user=poster.user, player_one=poster, player_two=alice)
        services.match_create(creator=poster.user, player_one=poster, player_two=alice)
        logged_in(poster).get(reverse("web:lobby-ping"))

    grow()
    lobby_few, home_few = queries(client, LOBBY), queries(client, HOME)
    for _ in range(6):
        grow()
    assert queries(client, LOBBY) == lobby_few
    assert queries(client, HOME) == home_few
