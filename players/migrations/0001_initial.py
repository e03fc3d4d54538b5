"""Club, Player and VariantRating move here from tournaments, keeping their tables
(tournaments_club, tournaments_player, tournaments_variantrating): the models are created in the
migration state only, no table changes. Their content types move too (and those of
RatingHistory and OwedTask, which move to games), so permissions, the admin log and the audit
log follow the models. The next steps: games 0006 (foreign keys to players.Player, RatingHistory
and OwedTask in games), then tournaments 0005 (the old models leave tournaments' state)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# (model, old app, new app) of every model that left tournaments in this move.
MOVED = [
    ("club", "tournaments", "players"),
    ("player", "tournaments", "players"),
    ("variantrating", "tournaments", "players"),
    ("ratinghistory", "tournaments", "games"),
    ("owedtask", "tournaments", "games"),
]


def content_types_move(
    apps: StateApps, schema_editor: BaseDatabaseSchemaEditor, *, backwards: bool = False
) -> None:
    """Relabel each moved model's content type row; a target that exists already (created by
    hand or an earlier, interrupted run) is left as it is, with the old row."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    rows = ContentType.objects.using(schema_editor.connection.alias)
    for model, old, new in MOVED:
        source, target = (new, old) if backwards else (old, new)
        if rows.filter(app_label=target, model=model).exists():
            continue
        rows.filter(app_label=source, model=model).update(app_label=target)


def content_types_move_back(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    content_types_move(apps, schema_editor, backwards=True)


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0004_owed_task"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Club",
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
                        ("name", models.CharField(max_length=120, unique=True)),
                        ("city", models.CharField(blank=True, max_length=120)),
                        (
                            "country",
                            models.CharField(
                                blank=True, help_text="ISO 3166-1 alpha-2 code", max_length=2
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "tournaments_club",
                        "ordering": ["name"],
                    },
                ),
                migrations.CreateModel(
                    name="Player",
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
                        ("display_name", models.CharField(max_length=80)),
                        (
                            "country",
                            models.CharField(
                                blank=True, help_text="ISO 3166-1 alpha-2 code", max_length=2
                            ),
                        ),
                        ("rating", models.FloatField(default=1500.0)),
                        ("rating_games", models.PositiveIntegerField(default=0)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "club",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="players",
                                to="players.club",
                            ),
                        ),
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="player",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_player",
                        "ordering": ["display_name", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="VariantRating",
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
                        ("variant", models.CharField(max_length=16)),
                        ("rating", models.FloatField(default=1500.0)),
                        ("experience", models.PositiveIntegerField(default=0)),
                        ("games", models.PositiveIntegerField(default=0)),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="variant_ratings",
                                to="players.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_variantrating",
                        "ordering": ["player", "variant"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("player", "variant"), name="variant_rating_unique"
                            )
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_types_move, content_types_move_back, elidable=False),
    ]
