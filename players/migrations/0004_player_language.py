"""The language of a player's account: stored when the player switches it, put back in the
language cookie at each log-in (players.signals)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0003_claimcode"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="language",
            field=models.CharField(blank=True, default="", max_length=10),
        ),
    ]
