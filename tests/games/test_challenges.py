"""Open challenges (games/services/challenges.py): post, take, withdraw, expire, the cap, and
direct challenges that only the challenged player may accept."""

import threading

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from games import services
from games.models import Match, OpenChallenge
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_player_posts_an_open_challenge_with_rules_length_and_clock(alice):
    challenge = services.open_challenge_post(
        user=alice.user,
        options={"preset": "bulgarian_nit"},
        target_score=7,
        clock_settings={"preset": "standard"},
        rated=False,
    )
    assert challenge.status == OpenChallenge.Status.OPEN
    assert challenge.created_by == alice and challenge.target_score == 7
    assert challenge.options["tapa_tie"] == "one_each"
    assert challenge.clock["preset"] == "standard" and not challenge.rated
    assert (challenge.expires_at - challenge.created_at).total_seconds() == pytest.approx(
        24 * 3600, abs=5
    )


def test_taking_a_challenge_starts_the_match_between_the_two(alice, bob):
    challenge = services.open_challenge_post(
        user=alice.user, target_score=3, clock_settings={"preset": "standard"}
    )
    match = services.open_challenge_take(challenge=challenge, user=bob.user)

    assert (match.player_one, match.player_two) == (alice, bob)
    assert match.status == Match.Status.IN_PROGRESS and match.rated
    assert match.accepted_at is not None and match.target_score == 3
    assert match.has_clock and match.games.count() == 1
    challenge.refresh_from_db()
    assert challenge.status == OpenChallenge.Status.TAKEN
    assert (challenge.taken_by, challenge.match) == (bob, match)


def test_an_unrated_challenge_gives_an_unrated_match(alice, bob):
    challenge = services.open_challenge_post(user=alice.user, rated=False)
    assert not services.open_challenge_take(challenge=challenge.pk, user=bob.user).rated


def test_a_second_take_is_refused(alice, bob):
    challenge = services.open_challenge_post(user=alice.user)
    services.open_challenge_take(challenge=challenge, user=bob.user)
    with pytest.raises(ConflictError, match="no longer open"):
        services.open_challenge_take(challenge=challenge, user=PlayerFactory().user)
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_takers_at_once_make_one_match(alice, bob):
    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises writers; the row lock is PostgreSQL's")
    carol = PlayerFactory()
    challenge = services.open_challenge_post(user=alice.user)
    barrier, outcomes = threading.Barrier(2), []

    def take(user) -> None:
        barrier.wait()
        try:
            services.open_challenge_take(challenge=challenge.pk, user=user)
            outcomes.append("match")
        except ConflictError:
            outcomes.append("409")
        finally:
            connection.close()

    threads = [threading.Thread(target=take, args=(u,)) for u in (bob.user, carol.user)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["409", "match"]
    assert Match.objects.count() == 1


def test_nobody_takes_their_own_challenge(alice):
    challenge = services.open_challenge_post(user=alice.user)
    with pytest.raises(ConflictError, match="your own"):
        services.open_challenge_take(challenge=challenge, user=alice.user)


def test_only_a_signed_in_player_posts_or_takes(alice, organiser):
    with pytest.raises(NotAllowedError):
        services.open_challenge_post(user=AnonymousUser())
    with pytest.raises(NotAllowedError):
        services.open_challenge_post(user=organiser)
    challenge = services.open_challenge_post(user=alice.user)
    with pytest.raises(NotAllowedError):
        services.open_challenge_take(challenge=challenge, user=organiser)


def test_the_poster_withdraws_and_nobody_else(alice, bob):
    challenge = services.open_challenge_post(user=alice.user)
    with pytest.raises(NotAllowedError):
        services.open_challenge_withdraw(challenge=challenge, user=bob.user)
    services.open_challenge_withdraw(challenge=challenge, user=alice.user)
    challenge.refresh_from_db()
    assert challenge.status == OpenChallenge.Status.WITHDRAWN
    with pytest.raises(ConflictError):
        services.open_challenge_take(challenge=challenge, user=bob.user)
    with pytest.raises(ConflictError):
        services.open_challenge_withdraw(challenge=challenge, user=alice.user)


def test_a_challenge_expires_after_a_day(alice, bob, fake_clock):
    challenge = services.open_challenge_post(user=alice.user)
    fake_clock.advance(24 * 3600 + 1)
    with pytest.raises(ConflictError, match="expired"):
        services.open_challenge_take(challenge=challenge, user=bob.user)
    assert services.open_challenges_expire() == 1
    challenge.refresh_from_db()
    assert challenge.status == OpenChallenge.Status.EXPIRED
    assert services.open_challenges_expire() == 0


def test_a_player_has_at_most_three_open_challenges(alice, settings, fake_clock):
    for _ in range(3):
        services.open_challenge_post(user=alice.user)
    with pytest.raises(ConflictError, match="OPEN_CHALLENGES_PER_PLAYER"):
        services.open_challenge_post(user=alice.user)
    fake_clock.advance(24 * 3600 + 1)  # expired ones no longer count
    services.open_challenge_post(user=alice.user)


def test_bad_rules_or_clock_are_refused(alice):
    with pytest.raises((InvalidRequestError, ValueError)):
        services.open_challenge_post(user=alice.user, options={"preset": "nope"})
    with pytest.raises(InvalidRequestError):
        services.open_challenge_post(user=alice.user, clock_settings={"preset": "nope"})
    assert not OpenChallenge.objects.exists()


def test_nobody_accepts_a_challenge_addressed_to_someone_else(alice, bob):
    match = services.match_propose(user=alice.user, player_one=alice, player_two=bob)
    for user in (alice.user, PlayerFactory().user):
        with pytest.raises(NotAllowedError):
            services.match_accept(match=match, user=user)
    match.refresh_from_db()
    assert match.status == Match.Status.INVITED
