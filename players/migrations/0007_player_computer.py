"""The computer opponents of practice matches (docs/decisions.md D131)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0006_player_email_switches"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="computer",
            field=models.CharField(blank=True, db_default="", default="", max_length=10),
        ),
    ]
