"""The shapes of profiles and leaderboards in the API (documentation of stats.selectors' dicts)."""

from __future__ import annotations

from rest_framework import serializers

from config.api_views import paginated
from games.engine import KINDS


class ReliabilitySerializer(serializers.Serializer):
    finished_without_timeout = serializers.FloatField(
        allow_null=True, help_text="Share (0 to 1) of finished games without a single timed-out turn."
    )
    games_with_timeout = serializers.IntegerField()
    timed_out_turns = serializers.IntegerField()
    average_move_seconds = serializers.FloatField(
        allow_null=True, help_text="Mean time from a turn's start to the player's move, over turns moved in time."
    )


class KindStatisticsSerializer(serializers.Serializer):
    games_played = serializers.IntegerField(help_text="Finished games plus games in progress.")
    games_in_progress = serializers.IntegerField()
    games_finished = serializers.IntegerField()
    games_won = serializers.IntegerField(help_text="Finished in first place, alone or shared.")
    games_resigned = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="games_won / games_finished; null before any.")
    current_streak = serializers.IntegerField(help_text="Wins in a row up to the latest finished game.")
    best_streak = serializers.IntegerField()
    average_place = serializers.FloatField(allow_null=True)
    reliability = ReliabilitySerializer()


class ScatStatisticsSerializer(KindStatisticsSerializer):
    knocks = serializers.IntegerField()
    knocks_survived = serializers.IntegerField(help_text="Knocks after which the knocker lost no life.")
    knock_survival_rate = serializers.FloatField(allow_null=True)
    thirty_ones = serializers.IntegerField(help_text="31s shown, on the deal or after a discard.")
    lives_lost = serializers.IntegerField()


class ScattleStatisticsSerializer(KindStatisticsSerializer):
    melds = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Final scores summed over finished games.")
    points_per_game = serializers.FloatField(allow_null=True)
    scattles = serializers.IntegerField(help_text="Times the player emptied the hand and called Scattle.")


class StatisticsSerializer(serializers.Serializer):
    games_played = serializers.IntegerField()
    games_in_progress = serializers.IntegerField()
    games_finished = serializers.IntegerField(help_text="Finished games of every kind.")
    games_won = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    reliability = ReliabilitySerializer()
    scat = ScatStatisticsSerializer()
    scattle = ScattleStatisticsSerializer()


SHOWN_HELP = (
    "The one number the site shows: mu on a scale where a newcomer starts at 1500, never negative; null "
    "while provisional (shown as “?”)."
)


class RatingSerializer(serializers.Serializer):
    mu = serializers.FloatField(
        help_text="The rating, estimated skill (OpenSkill Plackett-Luce); everyone starts at 25."
    )
    sigma = serializers.FloatField(help_text="Its uncertainty (starts at 8.33 and shrinks with games).")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma, the conservative rating the leaderboard ranks by.")
    games = serializers.IntegerField(help_text="Rated games played.")
    provisional = serializers.BooleanField(help_text="True for fewer than 5 rated games.")
    shown = serializers.IntegerField(allow_null=True, help_text=SHOWN_HELP)
    updated_at = serializers.DateTimeField(allow_null=True)


class RatingsSerializer(serializers.Serializer):
    scat = RatingSerializer(allow_null=True, help_text="Null until a Scat game is finished.")
    scattle = RatingSerializer(allow_null=True, help_text="Null until a Scattle game is finished.")


class RecentGameSerializer(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.ChoiceField(choices=KINDS)
    finished_at = serializers.DateTimeField()
    num_seats = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    won = serializers.BooleanField()
    resigned = serializers.BooleanField()
    players = serializers.ListField(child=serializers.CharField(allow_null=True))
    reason = serializers.CharField(allow_null=True, help_text="How the game ended, as the engine says.")


class UserProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    date_joined = serializers.DateTimeField()
    statistics = StatisticsSerializer()
    ratings = RatingsSerializer()
    recent_games = RecentGameSerializer(many=True, help_text="The latest finished games you may see.")


class LeaderboardEntrySerializer(RatingSerializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()


LeaderboardPageSerializer = paginated(LeaderboardEntrySerializer, "LeaderboardPageSerializer")


class RatingThenSerializer(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated games of this kind played by then.")
    provisional = serializers.BooleanField(help_text="True for fewer than 5 rated games.")
    shown = serializers.IntegerField(allow_null=True, help_text=SHOWN_HELP)


class RatingChangeSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    before = RatingThenSerializer()
    after = RatingThenSerializer()


class GameRatingsSerializer(serializers.Serializer):
    rated = serializers.BooleanField(help_text="Whether the game counts for ratings at all.")
    changes = RatingChangeSerializer(many=True, help_text="One per rated person (bots are left out), by seat.")
