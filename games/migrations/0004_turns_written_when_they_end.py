from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce


def close_open_turns(apps, schema_editor):
    """The running turn now lives on the game: drop the open rows of running games, and close any
    left open in games that are over (at the game's end)."""
    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    open_turns = Turn.objects.filter(ended_at__isnull=True)
    open_turns.filter(game__status="active").delete()
    game = Game.objects.filter(pk=OuterRef("game_id"))
    open_turns.update(ended_at=Subquery(game.values(ended=Coalesce("finished_at", "updated_at"))[:1]))


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0003_player_away_until'),
    ]

    operations = [
        migrations.RunPython(close_open_turns, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name='turn',
            name='one_open_turn_per_game',
        ),
        migrations.RemoveIndex(
            model_name='turn',
            name='turn_game_open',
        ),
        migrations.RemoveField(
            model_name='turn',
            name='reminded_at',
        ),
        migrations.AlterField(
            model_name='turn',
            name='ended_at',
            field=models.DateTimeField(),
        ),
        migrations.AddIndex(
            model_name='turn',
            index=models.Index(fields=['game', 'started_at'], name='turn_game_started'),
        ),
    ]
