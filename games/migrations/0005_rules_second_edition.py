# The rules' second edition. Games stored before it keep playing by the first: they are marked
# rules_edition 1, and the options the second edition added are written into their options (and
# into their snapshot's) with their first-edition meaning, so that a replay from the seed still
# gives the stored snapshot.

from django.db import migrations, models

FIRST_EDITION_OPTIONS = {
    "scat": {"max_rounds_per_hand": None},
    "scattle": {"idle_rounds_end": None, "tie_rule": "shared"},
}


def with_first_edition_options(kind, options):
    added = {name: value for name, value in FIRST_EDITION_OPTIONS[kind].items() if name not in options}
    return {**options, **added}


def keep_stored_games_on_the_first_edition(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.all().iterator(chunk_size=500):
        game.rules_edition = 1
        game.options = with_first_edition_options(game.kind, game.options or {})
        if game.state is not None:
            game.state = {**game.state, "options": with_first_edition_options(game.kind, game.state["options"])}
        game.save(update_fields=["rules_edition", "options", "state"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_turns_written_when_they_end"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rules_edition",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.RunPython(keep_stored_games_on_the_first_edition, migrations.RunPython.noop),
    ]
