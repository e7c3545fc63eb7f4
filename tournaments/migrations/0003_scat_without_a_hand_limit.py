# The rules' third edition added Scat's max_hands (default 60). A Scat tournament made before it keeps
# the rules it was made with: its later rounds' games get max_hands null, no limit, as its first did.

from django.db import migrations


def keep_stored_scat_tournaments_without_a_hand_limit(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.filter(kind="scat").iterator(chunk_size=500):
        if "max_hands" not in (tournament.options or {}):
            tournament.options = {"max_hands": None, **(tournament.options or {})}
            tournament.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_cancel_reason"),
    ]

    operations = [
        migrations.RunPython(keep_stored_scat_tournaments_without_a_hand_limit, migrations.RunPython.noop),
    ]
