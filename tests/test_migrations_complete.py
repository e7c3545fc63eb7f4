"""Every change to a model has its migration (a changed label of a choice too: it is in the schema
the migrations record, and a missing one would be written by whoever runs makemigrations next)."""

from django.core.management import call_command


def test_the_models_and_their_migrations_agree(db):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
