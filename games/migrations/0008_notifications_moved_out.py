# The notification models now belong to the notifications app (its 0001 took them over, on these
# very tables): games lets go of them in the state only, so no row is touched.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_rated_advice_and_reviews'),
        ('notifications', '0001_initial'),
        ('live', '0002_notification_moved'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='Delivery'),
                migrations.DeleteModel(name='Notification'),
                migrations.DeleteModel(name='PlayerPreference'),
            ],
            database_operations=[],
        ),
    ]
