from django.core.management.base import BaseCommand

from accounts.models import User

BATCH = 1000
KEY_FIELDS = User.NAME_KEY_FIELDS


class Command(BaseCommand):
    help = (
        "Recompute every account's look-alike keys from its username: after accounts/confusables_ma.txt "
        "is regenerated, or for accounts made without User.objects.create_user or the signup form."
    )

    def handle(self, *args, **options) -> None:
        changed, batch = 0, []
        for user in User.objects.only("pk", "username", *KEY_FIELDS).order_by("pk").iterator(BATCH):
            before = [getattr(user, field) for field in KEY_FIELDS]
            user.refresh_name_keys()
            if [getattr(user, field) for field in KEY_FIELDS] != before:
                batch.append(user)
            if len(batch) == BATCH:
                changed += User.objects.bulk_update(batch, KEY_FIELDS)
                batch = []
        changed += User.objects.bulk_update(batch, KEY_FIELDS)
        self.stdout.write(f"Refreshed the name keys of {changed} accounts.")
