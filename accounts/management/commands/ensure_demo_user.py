from django.core.management.base import BaseCommand

from accounts.models import User


class Command(BaseCommand):
    help = "Create the local demo account (demo / demo) if it does not exist. For `make run` only."

    def handle(self, *args, **options) -> None:
        user, created = User.objects.get_or_create(username="demo", defaults={"email": "demo@example.com"})
        if created:
            user.set_password("demo")
            user.save(update_fields=["password"])
            self.stdout.write("Created the demo user (demo / demo).")
