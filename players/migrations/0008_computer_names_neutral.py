"""The computer players' rows keep a name in no language (players.models.computer_stored_name):
the name shown is made in each reader's language (docs/decisions.md D163). Rows created before
stored it in the language of whoever first asked for that computer."""

from typing import Any

from django.db import migrations


def neutral_names(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("players", "Player")
    for player in Player.objects.exclude(computer=""):
        Player.objects.filter(pk=player.pk).update(display_name=f"Computer ({player.computer})")


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0007_player_computer"),
    ]

    operations = [
        migrations.RunPython(neutral_names, migrations.RunPython.noop),
    ]
