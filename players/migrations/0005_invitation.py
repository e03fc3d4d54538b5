"""Invitations: a claim code is derived from a random nonce with the server's key, so its link
can be shown again (players.selectors.invitation_code; docs/decisions.md D87)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0004_player_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="claimcode",
            name="nonce",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
    ]
