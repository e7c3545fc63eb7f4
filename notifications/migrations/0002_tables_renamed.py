# The tables take the notifications app's names (rows, indexes and constraints stay), and the admin's
# content types follow the models.

from django.db import migrations

MOVED = ("playerpreference", "notification", "delivery")


def content_types_follow(apps, schema_editor, source="games", target="notifications"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not ContentType.objects.filter(app_label=target, model=model).exists():
            ContentType.objects.filter(app_label=source, model=model).update(app_label=target)


def content_types_go_back(apps, schema_editor):
    content_types_follow(apps, schema_editor, source="notifications", target="games")


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0001_initial'),
        ('games', '0008_notifications_moved_out'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.AlterModelTable(name='playerpreference', table=None),
        migrations.AlterModelTable(name='notification', table=None),
        migrations.AlterModelTable(name='delivery', table=None),
        migrations.RunPython(content_types_follow, content_types_go_back),
    ]
