# Only the label of a choice: the unread counts event is sent when notices are written, too.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('live', '0002_notification_moved'),
    ]

    operations = [
        migrations.AlterField(
            model_name='streamevent',
            name='kind',
            field=models.CharField(choices=[('game', 'a game of theirs changed'), ('notification', 'a notification'), ('notifications_read', 'the unread counts changed: notices were read or written'), ('credentials', 'a token was revoked or the password changed')], max_length=24),
        ),
    ]
