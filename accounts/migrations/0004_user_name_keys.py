from django.db import migrations, models

from accounts import names

BATCH = 1000
KEY_FIELDS = ["name_key", "look_key", "caps_key"]


def fill_name_keys(apps, schema_editor):
    """Give every existing account its keys; no account is renamed or refused for looking like another."""
    User = apps.get_model("accounts", "User")
    batch = []
    for user in User.objects.only("pk", "username").order_by("pk").iterator(chunk_size=BATCH):
        user.name_key, user.look_key, user.caps_key = names.key_digests(user.username)
        batch.append(user)
        if len(batch) == BATCH:
            User.objects.bulk_update(batch, KEY_FIELDS)
            batch = []
    User.objects.bulk_update(batch, KEY_FIELDS)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_player_blocks"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="user",
            name="look_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="user",
            name="caps_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=64),
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
    ]
