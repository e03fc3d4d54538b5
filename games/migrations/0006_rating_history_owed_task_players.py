"""RatingHistory and OwedTask move here from tournaments, and every foreign key to a player now
points at players.Player: all in the migration state only, since the tables keep their names
(tournaments_ratinghistory, tournaments_owedtask, tournaments_player), so no table, column or
constraint changes. Owed tasks recorded under the old task names of the ratings and owed-task
runs (now games.tasks) are renamed, so a worker still finds them."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# The Celery tasks that moved from tournaments.tasks to games.tasks.
RENAMED_TASKS = ["ratings_recompute", "ratings_update", "owed_tasks_run"]


def owed_tasks_rename(
    apps: StateApps,
    schema_editor: BaseDatabaseSchemaEditor,
    *,
    old: str = "tournaments.tasks",
    new: str = "games.tasks",
) -> None:
    OwedTask = apps.get_model("games", "OwedTask")
    rows = OwedTask.objects.using(schema_editor.connection.alias)
    for name in RENAMED_TASKS:
        rows.filter(task=f"{old}.{name}").update(task=f"{new}.{name}")


def owed_tasks_rename_back(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    owed_tasks_rename(apps, schema_editor, old="games.tasks", new="tournaments.tasks")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_match_trust"),
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="OwedTask",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "task",
                            models.CharField(help_text="the Celery task's name", max_length=200),
                        ),
                        ("args", models.JSONField(default=list)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "tournaments_owedtask",
                        "ordering": ["id"],
                    },
                ),
                migrations.AlterField(
                    model_name="game",
                    name="black",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="game",
                    name="resigned_by",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="game",
                    name="result_winner",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="game",
                    name="white",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="match",
                    name="player_one",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="match",
                    name="player_two",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="match",
                    name="winner",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="resultreport",
                    name="starter",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="resultreport",
                    name="winner",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.CreateModel(
                    name="RatingHistory",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "variant",
                            models.CharField(
                                blank=True, help_text='"": the overall rating', max_length=16
                            ),
                        ),
                        (
                            "sequence",
                            models.PositiveIntegerField(
                                help_text="order in which results were rated"
                            ),
                        ),
                        ("rating", models.FloatField()),
                        ("change", models.FloatField()),
                        ("experience", models.PositiveIntegerField()),
                        ("rated_at", models.DateTimeField()),
                        (
                            "game",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="games.game",
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="games.match",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_history",
                                to="players.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_ratinghistory",
                        "ordering": ["player", "variant", "sequence"],
                        "indexes": [
                            models.Index(
                                fields=["player", "variant", "sequence"],
                                name="tournaments_player__6c7c53_idx",
                            )
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(owed_tasks_rename, owed_tasks_rename_back, elidable=False),
    ]
