# The rules' third edition. New games play by it (rules_edition 3). Scat's new option max_hands (A10d)
# ends a game after that many hands; games stored before it keep the rules they were made with: the
# option is written into their options (and their snapshot's) as null, no limit, so that they play on
# as before and a replay from the seed still gives the stored snapshot. Their edition stays as it was.

from django.db import migrations, models

NO_HAND_LIMIT = {"max_hands": None}


def without_a_hand_limit(options):
    return {**NO_HAND_LIMIT, **options}


def keep_stored_scat_games_without_a_hand_limit(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(kind="scat").iterator(chunk_size=500):
        if "max_hands" in (game.options or {}) and (game.state is None or "max_hands" in game.state["options"]):
            continue
        game.options = without_a_hand_limit(game.options or {})
        if game.state is not None:
            game.state = {**game.state, "options": without_a_hand_limit(game.state["options"])}
        game.save(update_fields=["options", "state"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_notifications_moved_out"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="rules_edition",
            field=models.PositiveSmallIntegerField(default=3),
        ),
        migrations.RunPython(keep_stored_scat_games_without_a_hand_limit, migrations.RunPython.noop),
    ]
