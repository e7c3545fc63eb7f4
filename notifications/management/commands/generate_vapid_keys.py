"""Print a new VAPID key pair as environment lines, for a deployment's secrets."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from notifications.vapid import generate_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY) for Web Push."

    def handle(self, *args, **options) -> None:
        keys = generate_keys()
        self.stdout.write(f"VAPID_PRIVATE_KEY={keys['private_key']}")
        self.stdout.write(f"VAPID_PUBLIC_KEY={keys['public_key']}")
        self.stderr.write(
            "Keep the private key secret. Changing the pair later cuts off every subscribed device "
            "(browsers subscribe with the public key)."
        )
