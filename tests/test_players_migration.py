"""The move of players, clubs and ratings out of tournaments (players 0001, games 0006,
tournaments 0005): a database filled at the old schema migrates forward with every row in
place and reachable through the new models, the content types follow the models, owed tasks
keep their (renamed) tasks, and the move changes no table: state-only, so no SQL at all."""

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Game, Match, OwedTask, RatingHistory
from players.models import Club, Player, VariantRating
from tournaments.models import Entry, Tournament, TournamentMatch

# The latest migrations before the move, and the move's own.
OLD = [("games", "0005_match_trust"), ("tournaments", "0004_owed_task")]
MOVE = [
    ("players", "0001_initial"),
    ("games", "0006_rating_history_owed_task_players"),
    ("tournaments", "0005_players_moved_out"),
]
MOVED = {"club": "players", "player": "players", "variantrating": "players",
         "ratinghistory": "games", "owedtask": "games"}  # fmt: skip


def executor() -> MigrationExecutor:
    migrations = MigrationExecutor(connection)
    migrations.loader.build_graph()
    return migrations


@pytest.fixture
def latest_schema_after():
    """Whatever a test migrated to, the database ends at the latest migrations again."""
    yield
    migrations = executor()
    migrations.migrate(migrations.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()


@pytest.mark.django_db(transaction=True)
def test_a_database_filled_at_the_old_schema_migrates_with_every_row_in_place(
    latest_schema_after,
):
    migrations = executor()
    migrations.migrate([("players", None), *OLD])  # players unapplied: the schema before it
    old = migrations.loader.project_state(OLD).apps
    assert "players" not in old.app_configs
    with pytest.raises(LookupError):
        old.get_model("games", "RatingHistory")

    get = old.get_model
    User = get("auth", "User")
    now = timezone.now()
    users = [User.objects.create(username=name) for name in ("ana", "boris", "org")]
    club = get("tournaments", "Club").objects.create(name="Skopje", country="MK")
    ana, boris = (
        get("tournaments", "Player").objects.create(
            user=user, display_name=user.username, club=club, rating=1510.0, rating_games=5
        )
        for user in users[:2]
    )
    match = get("games", "Match").objects.create(
        player_one=ana, player_two=boris, winner=ana, status="finished", options={}, rated=True
    )
    game = get("games", "Game").objects.create(
        match=match, number=1, variant="tabla", white=ana, black=boris, position={},
        status="finished", result_winner=ana, result_kind="single", result_points=1,
    )  # fmt: skip
    cup = get("tournaments", "Tournament").objects.create(
        name="Cup", club=club, created_by=users[2], format="swiss"
    )
    entries = [get("tournaments", "Entry").objects.create(tournament=cup, player=p, seed=i)
               for i, p in enumerate((ana, boris), start=1)]  # fmt: skip
    slot = get("tournaments", "TournamentMatch").objects.create(
        tournament=cup, key="R1-1", round=1, index=1, match=match,
        entry_one=entries[0], entry_two=entries[1], winner=entries[0], status="done",
    )  # fmt: skip
    history = get("tournaments", "RatingHistory").objects.create(
        player=ana, match=match, game=game, variant="tabla", sequence=1, rating=1508.0,
        change=8.0, experience=1, rated_at=now,
    )  # fmt: skip
    variant = get("tournaments", "VariantRating").objects.create(
        player=ana, variant="tabla", rating=1508.0, experience=1, games=1
    )
    OldOwedTask = get("tournaments", "OwedTask")
    owed = [OldOwedTask.objects.create(task=f"tournaments.tasks.{name}", args=args)
            for name, args in (("ratings_update", []), ("standings_recompute", [cup.pk]))]
    ContentType.objects.clear_cache()  # (its model did not change)
    old_types = {model: ContentType.objects.get(app_label="tournaments", model=model).pk
                 for model in MOVED}  # fmt: skip

    migrations = executor()
    migrations.migrate(migrations.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()

    assert Club.objects.get().name == "Skopje"
    player = Player.objects.select_related("club", "user").get(pk=ana.pk)
    assert (player.user.username, player.club.pk, player.rating, player.rating_games) == (
        "ana", club.pk, 1510.0, 5,
    )  # fmt: skip
    members = Player.objects.filter(club_id=club.pk).values_list("pk", flat=True)
    assert set(members) == {ana.pk, boris.pk}
    new_match = Match.objects.get(pk=match.pk)
    assert (new_match.player_one, new_match.player_two_id, new_match.winner) == (
        player, boris.pk, player,
    )  # fmt: skip
    new_game = Game.objects.get(pk=game.pk)
    assert (new_game.white_id, new_game.black_id, new_game.result_winner) == (ana.pk, boris.pk,
                                                                              player)  # fmt: skip
    tournament = Tournament.objects.get(pk=cup.pk)
    assert tournament.club == Club.objects.get()
    assert [e.player for e in Entry.objects.filter(tournament=tournament).order_by("seed")] == [
        player, Player.objects.get(pk=boris.pk),
    ]  # fmt: skip
    assert TournamentMatch.objects.get(pk=slot.pk).match == new_match
    row = RatingHistory.objects.get(pk=history.pk)
    assert (row.player, row.match, row.game, row.rating) == (player, new_match, new_game, 1508.0)
    assert list(player.rating_history.all()) == [row]
    assert player.variant_ratings.get().pk == variant.pk
    assert VariantRating.objects.get(pk=variant.pk).rating == 1508.0
    assert sorted(OwedTask.objects.values_list("pk", "task")) == [
        (owed[0].pk, "games.tasks.ratings_update"),
        (owed[1].pk, "tournaments.tasks.standings_recompute"),
    ]

    # The content type rows moved with their models (same ids), so the permissions, admin log
    # and audit log entries pointing at them now name the new models.
    for model, app in MOVED.items():
        content_type = ContentType.objects.get_by_natural_key(app, model)
        assert content_type.pk == old_types[model]
        assert content_type.model_class() is not None
    assert not ContentType.objects.filter(app_label="tournaments", model__in=MOVED).exists()
    assert Permission.objects.get(codename="change_player").content_type.app_label == "players"


@pytest.mark.django_db(transaction=True)  # SQLite's schema editor runs outside a transaction
def test_the_move_changes_no_table():
    """What ``sqlmigrate`` prints for the three migrations: comments only, on either database."""
    loader = executor().loader
    plan = [(loader.graph.nodes[node], False) for node in MOVE]
    statements = [line for line in loader.collect_sql(plan) if line.strip()]
    assert statements and all(line.startswith("--") for line in statements), statements
