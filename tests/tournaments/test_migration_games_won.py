"""The migration that makes games won nullable marks the finished matches whose stored games do
not give their score (a whole-match score) as having no game record (docs/decisions.md D27)."""

import pytest

from tests.tournaments.helpers import migrate_to, migrate_to_latest

BEFORE = [("games", "0007_verbose_name_plural"), ("tournaments", "0006_tournamentmatch_missed")]
AFTER = [("games", "0007_verbose_name_plural"), ("tournaments", "0007_games_won_unknown")]


migrate = migrate_to


@pytest.fixture
def latest_schema_after():
    yield
    migrate_to_latest()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_matches_without_a_game_record_get_games_won_unknown():
    old = migrate(BEFORE)
    User = old.get_model("auth", "User")
    Player = old.get_model("players", "Player")
    Tournament = old.get_model("tournaments", "Tournament")
    Entry = old.get_model("tournaments", "Entry")
    TournamentMatch = old.get_model("tournaments", "TournamentMatch")
    Match = old.get_model("games", "Match")
    Game = old.get_model("games", "Game")
    director = User.objects.create(username="director")
    ana, boris = (
        Player.objects.create(user=User.objects.create(username=n), display_name=n)
        for n in ("ana", "boris")
    )
    cup = Tournament.objects.create(name="Cup", created_by=director, format="round_robin")
    one, two = (Entry.objects.create(tournament=cup, player=p) for p in (ana, boris))

    def slot(key, score, games=(), forfeit=False):
        match = Match.objects.create(
            player_one=ana, player_two=boris, status="finished", options={},
            score_one=score[0], score_two=score[1],
        )  # fmt: skip
        for number, (winner, points) in enumerate(games, start=1):
            Game.objects.create(
                match=match, number=number, variant="tabla", white=ana, black=boris,
                position={}, status="finished", result_winner=winner, result_points=points,
            )  # fmt: skip
        return TournamentMatch.objects.create(
            tournament=cup, key=key, round=1, index=1, entry_one=one, entry_two=two, match=match,
            status="done", winner=one, score_one=score[0], score_two=score[1],
            games_one=len([g for g in games if g[0] == ana]), is_forfeit=forfeit,
        )  # fmt: skip

    played = slot("R1-1", (3, 1), [(ana, 2), (boris, 1), (ana, 1)])
    whole = slot("R2-1", (3, 1))
    partly = slot("R3-1", (3, 1), [(boris, 1)])  # a game, then the final score
    forfeit = slot("R4-1", (0, 0), forfeit=True)

    new = migrate(AFTER)
    games = dict(
        new.get_model("tournaments", "TournamentMatch").objects.values_list("pk", "games_one")
    )
    assert games == {played.pk: 2, whole.pk: None, partly.pk: None, forfeit.pk: 0}
