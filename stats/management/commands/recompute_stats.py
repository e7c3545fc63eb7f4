from django.core.management.base import BaseCommand

from stats.services import recompute_stats


class Command(BaseCommand):
    help = (
        "Wipe players' statistics and ratings and rebuild them from the move history, replaying every "
        "finished game in finishing order. The result equals what the games recorded as they ended."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--chunk-size", type=int, default=200, help="Games read from the database at a time.")

    def handle(self, *args, **options) -> None:
        summary = recompute_stats(chunk_size=options["chunk_size"])
        self.stdout.write(
            f"Rebuilt statistics and ratings from {summary.games} finished games: "
            f"{summary.players} players, {summary.history_rows} rating history rows."
        )
