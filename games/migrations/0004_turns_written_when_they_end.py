from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce


def close_open_turns(apps, schema_editor):
    """The running turn now lives on the game: move the open rows' reminder times onto their running
    games and drop those rows, and close any left open in games that are over (at the game's end)."""
    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    open_turns = Turn.objects.filter(ended_at__isnull=True)
    for turn in open_turns.filter(game__status="active", reminded_at__isnull=False):
        Game.objects.filter(pk=turn.game_id).update(turn_reminded_at=turn.reminded_at)
    open_turns.filter(game__status="active").delete()
    game = Game.objects.filter(pk=OuterRef("game_id"))
    open_turns.update(ended_at=Subquery(game.values(ended=Coalesce("finished_at", "updated_at"))[:1]))


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0003_player_away_until'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='turn_reminded_at',
            field=models.DateTimeField(blank=True, help_text="When the running turn's reminder went out.", null=True),
        ),
        migrations.RunPython(close_open_turns, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name='turn',
            name='one_open_turn_per_game',
        ),
        migrations.RemoveIndex(
            model_name='turn',
            name='turn_game_open',
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
