from django.db import migrations, models


def too_few_players(apps, schema_editor):
    """Until now a tournament was cancelled only for want of players at its start."""
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(cancelled=True).update(cancel_reason="too_few_players")


def cancelled(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.exclude(cancel_reason="").update(cancelled=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="cancel_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("too_few_players", "too few players had entered when it was due to start"),
                    ("creator", "its creator called it off"),
                ],
                max_length=16,
            ),
        ),
        migrations.RunPython(too_few_players, cancelled),
        # Whether it was cancelled is whether it has a reason (Tournament.cancelled).
        migrations.RemoveField(model_name="tournament", name="cancelled"),
    ]
