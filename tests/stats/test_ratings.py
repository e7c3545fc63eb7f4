"""Ratings (OpenSkill Plackett-Luce) move when a game ends: winners up, losers down, uncertainty down."""

from stats.models import Rating, RatingHistory
from stats.ratings import INITIAL_MU, INITIAL_SIGMA, rate
from tests.accounts.helpers import finish_in_order, lose_to_bot, win


def test_the_winner_gains_the_loser_drops_and_both_grow_surer(alice, bob):
    game = win(alice, bob)

    alice_rating = Rating.objects.get(user=alice, kind="scat")
    bob_rating = Rating.objects.get(user=bob, kind="scat")
    assert alice_rating.mu > INITIAL_MU > bob_rating.mu
    assert alice_rating.sigma < INITIAL_SIGMA and bob_rating.sigma < INITIAL_SIGMA
    assert alice_rating.ordinal == alice_rating.mu - 3 * alice_rating.sigma
    assert (alice_rating.games, bob_rating.games) == (1, 1)
    history = RatingHistory.objects.get(user=alice, game=game)
    assert (history.place, history.mu, history.sigma) == (1, alice_rating.mu, alice_rating.sigma)


def test_uncertainty_keeps_shrinking_with_every_game(alice, bob):
    sigmas = []
    for _ in range(4):
        win(alice, bob)
        sigmas.append(Rating.objects.get(user=alice, kind="scat").sigma)
    assert sigmas == sorted(sigmas, reverse=True)
    assert len(set(sigmas)) == 4


def test_in_a_three_player_game_the_middle_place_lands_between(alice, bob, charlie):
    finish_in_order([alice, bob, charlie])
    mu = {r.user.username: r.mu for r in Rating.objects.filter(kind="scat").select_related("user")}
    assert mu["alice"] > mu["bob"] > mu["charlie"]


def test_ratings_are_kept_per_game_kind(alice, bob):
    win(alice, bob, kind="scattle")
    assert Rating.objects.filter(user=alice, kind="scattle").exists()
    assert not Rating.objects.filter(user=alice, kind="scat").exists()


def test_a_bot_level_shares_one_rating_that_moves_like_a_players(alice, bob):
    lose_to_bot(alice, level="good")
    lose_to_bot(bob, level="good")

    bot = Rating.objects.get(user__isnull=True, bot_level="good", kind="scat")
    assert bot.games == 2
    assert bot.mu > INITIAL_MU
    assert Rating.objects.get(user=alice, kind="scat").mu < INITIAL_MU
    # Bots have no history rows: only people have a profile to chart.
    assert RatingHistory.objects.filter(user__isnull=True).count() == 0


def test_a_shared_place_is_a_tie_for_the_rating_model():
    (a_mu, a_sigma), (b_mu, b_sigma), (c_mu, _c_sigma) = rate([(25, 25 / 3)] * 3, [1, 1, 3])
    assert (a_mu, a_sigma) == (b_mu, b_sigma)
    assert a_mu > c_mu
