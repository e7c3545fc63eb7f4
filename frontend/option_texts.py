"""Player-facing names and one-line explanations of the rules options, marked for translation.

The engine's own help texts are English and name options by their keys ("stalemate_end"); the
form speaks to players instead. An option missing here still shows, with the engine's help.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from config import l10n

# (kind, option) -> (label, help)
OPTION_TEXTS = {
    ("scat", "min_players"): (_("Fewest players"), _("The game cannot start with fewer players.")),
    ("scat", "max_players"): (_("Most players"), _("The game takes no more players than this.")),
    ("scat", "initial_tokens"): (_("Lives"), _("Tokens (lives) each player starts with.")),
    ("scat", "on_the_county"): (
        _("On the county"),
        _("A player who has lost every token stays in the game and is out at the next loss."),
    ),
    ("scat", "knocker_sole_lowest_loss"): (
        _("Knocker alone with the lowest hand"),
        _("Lives the knocker loses when his hand alone is the lowest."),
    ),
    ("scat", "knocker_tie_rule"): (
        _("Knocker tied for the lowest hand"),
        _("What happens when the knocker ties with others for the lowest hand."),
    ),
    ("scat", "thirty_one_knocker_loss"): (
        _("Knocker beaten by a 31"),
        _("Lives the knocker loses when another player makes 31."),
    ),
    ("scat", "three_of_a_kind_value"): (
        _("Three of a kind"),
        _("What three cards of one rank are worth."),
    ),
    ("scat", "straight_flush_value"): (
        _("Straight flush"),
        _("What three cards of one suit in sequence are worth."),
    ),
    ("scat", "straight_flush_ace_low"): (
        _("Ace-2-3 straight flush"),
        _("Whether A-2-3 of one suit counts as a straight flush."),
    ),
    ("scat", "min_knock_score"): (
        _("Least hand to knock"),
        _("The hand value a player needs to knock; leave empty to allow any hand."),
    ),
    ("scat", "knock_allowed_first_round"): (
        _("Knock in the first round"),
        _("Whether a player may knock before everyone has had a turn."),
    ),
    ("scat", "allow_stand_after_knock"): (
        _("Stand after a knock"),
        _("Whether a player may keep his hand on his last turn after a knock."),
    ),
    ("scat", "throw_down"): (
        _("Throw down"),
        _("Whether a player may throw down: an immediate showdown, as if he had knocked."),
    ),
    ("scat", "stock_exhausted"): (
        _("When the stock runs out"),
        _("Rebuild it from the discard pile, or end the hand with no loss."),
    ),
    ("scat", "stock_rebuild_order"): (
        _("New stock"),
        _("How the discard pile becomes the new stock."),
    ),
    ("scat", "first_dealer"): (_("First dealer"), _("Who deals the first hand.")),
    ("scat", "max_rounds_per_hand"): (
        _("Rounds per hand"),
        _("A hand in which nobody knocks ends in a showdown after this many rounds; leave empty for no limit."),
    ),
    ("scat", "max_hands"): (
        _("Hands per game"),
        _(
            "The game ends after this many hands; players are placed by the tokens they have left. "
            "Leave empty for no limit."
        ),
    ),
    ("scattle", "deck_count"): (
        _("Decks"),
        _(
            "Decks of 52 cards shuffled together; two decks allow 7 or 8 players and twin cards. "
            "Automatic: chosen by the number of players."
        ),
    ),
    ("scattle", "hand_size"): (
        _("Hand size"),
        _("Cards dealt to each player; after every turn the hand is refilled to this size."),
    ),
    ("scattle", "max_group_size"): (
        _("Largest group"),
        _("Most cards in a group of one rank (at most 4 with one deck)."),
    ),
    ("scattle", "max_run_length"): (
        _("Longest run"),
        _("Most cards in a run of one suit; a meld of n cards scores n points."),
    ),
    ("scattle", "ace_in_runs"): (_("Ace in runs"), _("Where the ace may stand in a run.")),
    ("scattle", "color_bonus_scope"): (
        _("Colour bonus"),
        _("Which melds of a single colour score the bonus (groups need two decks)."),
    ),
    ("scattle", "color_bonus_multiplier"): (
        _("Colour bonus multiplier"),
        _("A single-colour meld of n cards scores n times this."),
    ),
    ("scattle", "lay_off"): (_("Lay off"), _("Whether you may add a card from your hand to one of your own melds.")),
    ("scattle", "scattle_final_discard"): (
        _("Scattle! by discarding"),
        _("Whether discarding your last card also calls Scattle!, or only melding out does."),
    ),
    ("scattle", "target_score"): (
        _("Target score"),
        _(
            "The first player to reach this score wins at once; leave empty for no target. "
            "Automatic (auto): chosen by the number of players, so that most games are won."
        ),
    ),
    ("scattle", "deadwood_penalty"): (
        _("Deadwood penalty"),
        _("At the end, cards left in hand cost their rank (ace 1 to king 13)."),
    ),
    ("scattle", "discard_retake_same_turn"): (
        _("Discard a card just taken"),
        _("Whether you may discard a card you took from the discard pile this turn."),
    ),
    ("scattle", "stock_rebuild_order"): (_("New stock"), _("How the discards become a new stock.")),
    ("scattle", "max_stock_rebuilds"): (
        _("Stock rebuilds"),
        _("How often the stock may be rebuilt; leave empty for no limit (needs the stalemate end)."),
    ),
    ("scattle", "stalemate_end"): (
        _("End on stalemate"),
        _("End the game when the stock must be rebuilt but nobody has melded since the last rebuild."),
    ),
    ("scattle", "first_player"): (_("First player"), _("Who plays first.")),
    ("scattle", "tie_rule"): (_("Ties"), _("What equal final scores mean.")),
    ("scattle", "idle_rounds_end"): (
        _("Rounds without a meld"),
        _("So many full rounds in which nobody melds end the game by stalemate; leave empty for no limit."),
    ),
}

# (option, value) -> label, for choice options; values as the engine spells them.
CHOICE_LABELS = {
    ("knocker_sole_lowest_loss", 1): _("1 life"),
    ("knocker_sole_lowest_loss", 2): _("2 lives"),
    ("thirty_one_knocker_loss", 1): _("1 life"),
    ("thirty_one_knocker_loss", 2): _("2 lives"),
    ("knocker_tie_rule", "knocker_safe"): _("the knocker is safe, the others lose a life"),
    ("knocker_tie_rule", "knocker_loses_two_others_one"): _("the knocker loses 2 lives, the others 1"),
    ("knocker_tie_rule", "all_tied_lose_one"): _("everyone tied loses a life (nobody, if all tie)"),
    ("three_of_a_kind_value", None): pgettext_lazy("option value", "off"),
    ("three_of_a_kind_value", 30): "30",
    ("three_of_a_kind_value", 30.5): "30½",
    ("straight_flush_value", None): pgettext_lazy("option value", "off"),
    ("straight_flush_value", 30): "30",
    ("stock_exhausted", "rebuild"): _("rebuild it from the discard pile"),
    ("stock_exhausted", "void_hand"): _("end the hand, nobody loses"),
    ("stock_rebuild_order", "shuffle"): _("shuffled"),
    ("stock_rebuild_order", "turn_over"): _("turned over"),
    ("ace_in_runs", "low"): _("low only (A-2-3)"),
    ("ace_in_runs", "low_or_high"): _("low or high (Q-K-A too)"),
    ("ace_in_runs", "wrap"): _("around the corner (K-A-2 too)"),
    ("color_bonus_scope", "groups"): _("groups"),
    ("color_bonus_scope", "all_melds"): _("all melds"),
    ("color_bonus_scope", "off"): pgettext_lazy("option value", "off"),
    ("lay_off", "none"): _("not played"),
    ("lay_off", "own"): _("on your own melds"),
    ("scattle_final_discard", "optional"): _("allowed"),
    ("scattle_final_discard", "forbidden"): _("only by melding out"),
    ("tie_rule", "first_to_reach"): _("whoever reached the score first ranks higher"),
    ("tie_rule", "shared"): _("share a place"),
    ("tie_rule", "scattle_caller_wins_ties"): _("the Scattle! caller wins his ties"),
}


def option_label(kind: str, spec: dict) -> str:
    texts = OPTION_TEXTS.get((kind, spec["name"]))
    return str(texts[0]) if texts else spec["name"].replace("_", " ").capitalize()


def option_help(kind: str, spec: dict) -> str:
    texts = OPTION_TEXTS.get((kind, spec["name"]))
    return str(texts[1]) if texts else spec.get("help", "")


def choice_label(option: str, value: object) -> str:
    if value == "auto":
        return str(pgettext_lazy("option value", "automatic"))
    label = CHOICE_LABELS.get((option, value))
    if label is None:
        return l10n.number(value) if l10n.is_number(value) else str(value)
    return str(label) if isinstance(label, Promise) else l10n.digits(label)  # "30½" is a figure too
