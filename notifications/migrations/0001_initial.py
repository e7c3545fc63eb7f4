# The notification tables move here from games without losing a row: this migration only takes
# the models into notifications' state, on the tables games made (games_*); live 0002 points its
# foreign key here, games 0008 lets go of the models, and 0002 renames the tables.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0007_rated_advice_and_reviews'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PlayerPreference',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('channels', models.JSONField(blank=True, default=dict, help_text='event -> list of channels; missing = default')),
                        ('reminder_share', models.FloatField(default=0.8, help_text="Remind when this share of the move's time is used.")),
                        ('digest_enabled', models.BooleanField(default=False)),
                        ('digest_hour', models.PositiveSmallIntegerField(default=8, help_text='Local hour (0-23) of the daily digest.')),
                        ('last_digest_on', models.DateField(blank=True, null=True)),
                        ('webhook_url', models.URLField(blank=True, max_length=500)),
                        ('webhook_secret', models.CharField(blank=True, max_length=64)),
                        ('webhook_last_error', models.CharField(blank=True, max_length=500)),
                        ('webhook_last_error_at', models.DateTimeField(blank=True, null=True)),
                        ('vacation_days_per_year', models.PositiveSmallIntegerField(default=14)),
                        ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='preference', to=settings.AUTH_USER_MODEL)),
                        ('away_until', models.DateTimeField(blank=True, editable=False, null=True)),
                    ],
                    options={'db_table': 'games_playerpreference'},
                ),
                migrations.CreateModel(
                    name='Notification',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('your_turn', 'your turn'), ('time_running_out', 'time running out'), ('game_over', 'game over'), ('invitation', 'invitation'), ('game_started', 'game started'), ('digest', 'daily digest')], max_length=32)),
                        ('payload', models.JSONField(default=dict)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('read_at', models.DateTimeField(blank=True, null=True)),
                        ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to='games.game')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL)),
                        ('in_app', models.BooleanField(default=True, help_text='Listed on the site; false when only sent outside.')),
                    ],
                    options={
                        'ordering': ['-created_at', '-pk'],
                        'indexes': [models.Index(fields=['user', '-created_at'], name='notification_user_recent')],
                        'db_table': 'games_notification',
                    },
                ),
                migrations.CreateModel(
                    name='Delivery',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('channel', models.CharField(choices=[('in_app', 'on the site'), ('email', 'email'), ('webhook', 'webhook')], max_length=16)),
                        ('status', models.CharField(choices=[('pending', 'pending'), ('sent', 'sent'), ('failed', 'failed')], default='pending', max_length=16)),
                        ('attempts', models.PositiveSmallIntegerField(default=0)),
                        ('next_attempt_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('claimed_until', models.DateTimeField(blank=True, null=True)),
                        ('last_error', models.CharField(blank=True, max_length=500)),
                        ('sent_at', models.DateTimeField(blank=True, null=True)),
                        ('notification', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deliveries', to='notifications.notification')),
                    ],
                    options={
                        'indexes': [models.Index(condition=models.Q(('status', 'pending')), fields=['next_attempt_at'], name='delivery_pending_due')],
                        'constraints': [models.UniqueConstraint(fields=('notification', 'channel'), name='one_delivery_per_channel')],
                        'db_table': 'games_delivery',
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
