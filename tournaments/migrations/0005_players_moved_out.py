"""Club, Player, VariantRating, RatingHistory and OwedTask leave tournaments' migration state
(they live in players and games now, on the same tables), and the foreign keys to a club or a
player point at players' models: state only, no table changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_rating_history_owed_task_players"),
        ("players", "0001_initial"),
        ("tournaments", "0004_owed_task"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name="tournament",
                    name="club",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="tournaments",
                        to="players.club",
                    ),
                ),
                migrations.RemoveField(
                    model_name="player",
                    name="club",
                ),
                migrations.DeleteModel(
                    name="OwedTask",
                ),
                migrations.RemoveField(
                    model_name="player",
                    name="user",
                ),
                migrations.RemoveField(
                    model_name="variantrating",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="ratinghistory",
                    name="player",
                ),
                migrations.AlterField(
                    model_name="entry",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="players.player",
                    ),
                ),
                migrations.RemoveField(
                    model_name="ratinghistory",
                    name="game",
                ),
                migrations.RemoveField(
                    model_name="ratinghistory",
                    name="match",
                ),
                migrations.DeleteModel(
                    name="Club",
                ),
                migrations.DeleteModel(
                    name="VariantRating",
                ),
                migrations.DeleteModel(
                    name="Player",
                ),
                migrations.DeleteModel(
                    name="RatingHistory",
                ),
            ],
        ),
    ]
