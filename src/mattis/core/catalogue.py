"""The one string catalogue: every word the project shows people, in Norwegian
(bokmål) and English, keyed by a dotted name.

``TEXT[key] == (nb, en)``.  Keys name what the text is for: ``reason.<code>`` for
an illegal move (:class:`~mattis.core.vocabulary.Reason`), and so on.  Parameters
are ``str.format`` fields.  Pure data: the terminal UI, the web page (its JSON is
generated from this table) and the engine's messages all read it.
"""

from __future__ import annotations

from typing import Final

TEXT: Final[dict[str, tuple[str, str]]] = {
    # -- why a move is illegal (core.vocabulary.Reason)
    "reason.game_over": ("spillet er over", "the game is over"),
    "reason.not_your_turn": ("det er ikke din tur", "it is seat {number}'s turn"),
    "reason.not_legal": ("ulovlig trekk", "illegal move"),
    "reason.no_pickup_in_phase1": ("det er ingenting å ta opp i fase 1", "there is nothing to pick up in phase 1"),
    "reason.chance_off": ("sjanse er ikke lov med disse reglene", "chance (sjanse) is not allowed in these rules"),
    "reason.chance_stock": ("sjanse krever minst to kort i bunken", "chance needs at least two cards in the stock"),
    "reason.chance_not_leading": ("sjanse er bare lov når du spiller ut", "chance is only allowed when you lead"),
    "reason.one_card_in_phase1": ("i fase 1 legger du ett kort om gangen", "in phase 1 you lay one card at a time"),
    "reason.not_held": ("du har ikke {cards}", "you do not hold {cards}"),
    "reason.no_chance_in_phase2": ("det er ingen sjanse i fase 2", "there is no chance (sjanse) in phase 2"),
    "reason.nothing_to_pick_up": ("det ligger ingenting på bordet å ta opp",
                                  "there is nothing on the table to pick up"),
    "reason.must_beat_not_pick_up": ("du kan stikke over, og disse reglene lar deg ikke ta opp i stedet",
                                     "you can beat the top entry, and these rules do not let you pick up instead"),
    "reason.no_sequences": ("serier er ikke lov med disse reglene",
                            "sequences (serie) are not allowed in these rules"),
    "reason.not_a_sequence": ("en serie må være kort på rad i samme farge",
                              "a sequence must be consecutive cards of one suit"),
    "reason.sequence_too_short": ("en serie må ha minst {number} kort",
                                  "a sequence must be at least {number} cards long"),
    "reason.cannot_lead": ("det kan ikke spilles ut", "that entry cannot be led"),
    "reason.must_follow_not_trump": ("du kan stikke i fargen, så du må følge farge i stedet for å trumfe",
                                     "you can beat in the suit, so you must follow suit instead of trumping"),
    "reason.must_beat": ("det må være høyere enn {cards}", "it must be higher than {cards}"),
    "reason.must_follow_or_trump": ("du må følge farge med et høyere kort, eller trumfe",
                                    "you must follow suit with a higher card, or trump"),
}
