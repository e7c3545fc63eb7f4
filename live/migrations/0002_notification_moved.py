# The notifications table moved to the notifications app (notifications 0001): the foreign key
# follows it in the state; in the database it already points at that table.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('live', '0001_initial'),
        ('notifications', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='streamevent',
                    name='notification',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='notifications.notification'),
                ),
            ],
            database_operations=[],
        ),
    ]
