"""A tournament match resigned whole by one of its players (games.services.match_resign;
docs/decisions.md D166): recorded as a match played and lost, not a forfeit, at the match
length, and its winner goes on in the bracket."""

import pytest

from games import selectors as games_selectors
from games import services as games_services
from games.models import Match
from tests.tournaments.helpers import tournament_running
from tournaments.models import Standing, TournamentMatch

pytestmark = pytest.mark.django_db


def test_a_resigned_match_is_a_result_and_its_winner_advances(org_api, players, organiser, api_as):
    pk = tournament_running(
        org_api, players[:4], format="single_elimination", match_mode="online", match_length=3
    )["id"]
    row = TournamentMatch.objects.filter(tournament_id=pk, round=1).order_by("index").first()
    games_services.match_start(match=row.match, user=organiser)
    match = Match.objects.get(pk=row.match_id)
    loser = games_selectors.player_to_move(games_selectors.current_game(match))
    winner = match.player_two if loser == match.player_one else match.player_one

    answer = api_as(loser).post("games:match-resign", pk=match.pk)

    assert answer["ended_by"] == "resignation" and answer["winner"] == winner.pk
    row.refresh_from_db()
    assert row.status == TournamentMatch.Status.DONE
    assert row.winner.player_id == winner.pk and row.is_forfeit is False
    scores = (row.score_one, row.score_two)
    assert max(scores) == 3 and min(scores) == 0
    final = TournamentMatch.objects.get(tournament_id=pk, round=2)
    assert row.winner_id in (final.entry_one_id, final.entry_two_id)
    assert Standing.objects.get(tournament_id=pk, entry__player=loser).forfeits == 0
