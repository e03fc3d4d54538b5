from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0010_tournament_clock'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='spectator_chances',
            field=models.CharField(choices=[('hidden', 'Hidden'), ('delayed', 'Delayed'), ('live', 'Live')], default='delayed', help_text="what spectators see of a match's chances while it is on", max_length=8),
        ),
    ]
