import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import accounts.models


def give_tokens_public_ids(apps, schema_editor):
    ApiToken = apps.get_model("accounts", "ApiToken")
    for token in ApiToken.objects.filter(public_id__isnull=True).only("pk"):
        token.public_id = accounts.models.new_token_id()
        token.save(update_fields=["public_id"])


KINDS = [("scat", "Scat"), ("scattle", "Scattle")]


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("games", "0001_initial"),
    ]

    operations = [
        # A unique id for existing tokens: add it empty, fill it row by row, then make it unique.
        migrations.AddField(
            model_name="apitoken",
            name="public_id",
            field=models.CharField(editable=False, max_length=16, null=True),
        ),
        migrations.RunPython(give_tokens_public_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="apitoken",
            name="public_id",
            field=models.CharField(
                default=accounts.models.new_token_id, editable=False, max_length=16, unique=True
            ),
        ),
        migrations.CreateModel(
            name="PlayerStats",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=KINDS, max_length=16)),
                ("games_finished", models.PositiveIntegerField(default=0)),
                (
                    "games_won",
                    models.PositiveIntegerField(default=0, help_text="Finished first, alone or sharing first place."),
                ),
                ("games_resigned", models.PositiveIntegerField(default=0)),
                ("place_sum", models.PositiveIntegerField(default=0)),
                (
                    "current_streak",
                    models.PositiveIntegerField(default=0, help_text="Wins in a row, up to the latest game."),
                ),
                ("best_streak", models.PositiveIntegerField(default=0)),
                ("games_with_timeout", models.PositiveIntegerField(default=0)),
                ("timed_out_turns", models.PositiveIntegerField(default=0)),
                (
                    "turns_moved",
                    models.PositiveIntegerField(default=0, help_text="Turns the player ended by moving in time."),
                ),
                ("move_time_ms", models.BigIntegerField(default=0, help_text="Total time those turns took.")),
                ("knocks", models.PositiveIntegerField(default=0)),
                ("knocks_survived", models.PositiveIntegerField(default=0)),
                ("thirty_ones", models.PositiveIntegerField(default=0)),
                ("lives_lost", models.PositiveIntegerField(default=0)),
                ("melds", models.PositiveIntegerField(default=0)),
                (
                    "points",
                    models.IntegerField(
                        default=0, help_text="Final scores summed (negative with deadwood penalties)."
                    ),
                ),
                ("scattles", models.PositiveIntegerField(default=0)),
                ("last_finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="stats",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("user", "kind"), name="stats_user_kind_unique")],
            },
        ),
        migrations.CreateModel(
            name="Rating",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("bot_level", models.CharField(blank=True, max_length=16)),
                ("kind", models.CharField(choices=KINDS, max_length=16)),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("ordinal", models.FloatField()),
                ("games", models.PositiveIntegerField(default=0)),
                ("updated_at", models.DateTimeField(blank=True, null=True)),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["kind", "-ordinal"], name="rating_leaderboard")],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("user__isnull", False)),
                        fields=("user", "kind"),
                        name="rating_user_kind_unique",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("user__isnull", True)),
                        fields=("bot_level", "kind"),
                        name="rating_bot_kind_unique",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("bot_level", ""), ("user__isnull", False)),
                            models.Q(("user__isnull", True), models.Q(("bot_level", ""), _negated=True)),
                            _connector="OR",
                        ),
                        name="rating_user_or_bot",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="RatingHistory",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=KINDS, max_length=16)),
                ("place", models.PositiveSmallIntegerField()),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("ordinal", models.FloatField()),
                ("recorded_at", models.DateTimeField()),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to="games.game",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_history",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["recorded_at", "pk"],
                "indexes": [models.Index(fields=["user", "kind", "-recorded_at"], name="rating_history_recent")],
                "constraints": [
                    models.UniqueConstraint(fields=("user", "game"), name="rating_history_once_per_game")
                ],
            },
        ),
    ]
