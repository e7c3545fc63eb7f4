from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.replay import replay_state


class Command(BaseCommand):
    help = "Replay every started game from its seed and its moves; report any whose snapshot differs."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_ids", nargs="*", help="Only these games (public ids).")

    def handle(self, *args, game_ids: list[str], **options) -> None:
        games = Game.objects.exclude(state=None).order_by("pk")
        if game_ids:
            games = games.filter(public_id__in=game_ids)
        checked, bad = 0, []
        for game in games.iterator(chunk_size=200):
            checked += 1
            moves = list(game.moves.order_by("seq"))
            problem = None
            if [m.seq for m in moves] != list(range(1, game.version + 1)):
                problem = f"moves are not 1..{game.version} without gaps or doubles"
            else:
                try:
                    if replay_state(game, moves) != game.state:
                        problem = "the snapshot differs from the replay"
                except Exception as exc:  # a move the rules refuse is exactly what we are looking for
                    problem = f"the replay fails: {exc}"
            if problem:
                bad.append(game.public_id)
                self.stdout.write(f"INCONSISTENT {game.public_id}: {problem}")
        self.stdout.write(f"checked {checked} games, {len(bad)} inconsistent")
        if bad:
            raise CommandError(f"{len(bad)} inconsistent games: {', '.join(bad)}")
