"""How to play and the rules in words say what the engine does, for every preset: who
leads phase 2, who deals (and leads) the next game, and when phase 1 ends.  Random
seeded games are played through the referee and a sitting; each claim of the text is
checked against what happened, seen from the public observation."""

from __future__ import annotations

import random

import pytest

from mattis.core import PHASE1, PHASE2, PRESETS, Observation, Rules, preset
from mattis.core.cards import Lang
from mattis.core.rules import EmptyHand, NextLeader, Phase1End, Trump
from mattis.core.text import how_to_play, loser_term, rules_in_words, say
from mattis.play import Referee, Sitting

GAMES = 40
LANGS: tuple[Lang, ...] = ("nb", "en")


def _paragraph(rules: Rules, lang: Lang, heading: str) -> str:
    parts = dict(how_to_play(rules, lang))
    return parts[say(heading, lang)]


def _holder(obs: Observation) -> int | None:
    """The seat publicly known to hold the trump card, if any."""
    card = obs.trump_card
    if card is None:
        return None
    holders = [s for s in range(obs.players) if card in obs.known[s]]
    return holders[0] if holders else None


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_how_to_play_names_the_phase_2_leader_the_engine_lets_lead(name: str) -> None:
    rules = preset(name)
    players = max(3, rules.min_players)
    # The sentence the text uses: the trump card's holder where it is set aside face down
    # and joins her hand at phase 2; else whoever got the last card of the stock.
    key = "trump_holder" if rules.trump is Trump.LAST_CARD else "last_drawer"
    for lang in LANGS:
        assert say(f"howto.leader2.{key}", lang) in _paragraph(rules, lang, "howto.h.phase2")
        if key == "last_drawer":
            assert dict(rules_in_words(rules, lang))[say("opt.leader2", lang)] == say(
                "lead2.last_drawer", lang)
    checked = 0
    for seed in range(GAMES):
        ref = Referee.new(rules, players, seed=seed, dealer=seed % players)
        rng = random.Random(seed)
        drawer: int | None = None
        obs = ref.observation(0)
        while obs.phase is PHASE1:
            seat = ref.to_act
            assert seat is not None
            ref.apply(seat, rng.choice(ref.observation(seat).legal))
            obs = ref.observation(0)
            if drawer is None and obs.stock_count == 0 and key == "last_drawer":
                drawer = _holder(obs)  # the trump card is public: who got it when the stock ran out
        if obs.phase is not PHASE2:
            continue  # every seat but one lost at once (Blodmattis)
        expected = _holder(obs) if key == "trump_holder" else drawer
        assert expected is not None, (name, seed)
        if rules.empty_hand is EmptyHand.LOSES and expected in obs.blodmattis:
            # "Er den spilleren Blodmattis, spiller neste til venstre ut."
            assert say("howto.leader2.passed", "nb") in _paragraph(rules, "nb", "howto.h.phase2")
            expected = next(s for s in ((expected + j) % players for j in range(1, players)) if obs.is_in(s))
        assert ref.to_act == expected, (name, seed)
        checked += 1
    assert checked >= GAMES // 2


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("next_leader", list(NextLeader))
def test_how_to_play_says_who_deals_and_leads_the_next_game(name: str, next_leader: NextLeader) -> None:
    rules = preset(name, next_leader=next_leader)
    players = max(3, rules.min_players)
    for lang in LANGS:
        text = _paragraph(rules, lang, "howto.h.next")
        # The loser deals, as the traditional text says ("Mattis stokker og gir til neste
        # spill", Regler for kortspillet Mattis), quoted where the loser is the Mattis; the
        # Skitgubbe text does not say, and its how to play says so.
        why = say(f"howto.next.why.{loser_term(rules)}", lang)
        assert text == say(f"howto.next.{next_leader.value}", lang, why=why)
    nb = _paragraph(rules, "nb", "howto.h.next")
    assert nb.startswith("Taperen gir neste spill") and _paragraph(rules, "en", "howto.h.next").startswith(
        "The loser deals the next game")
    assert ("Mattis stokker og gir til neste spill" in nb) == (loser_term(rules) == "mattis")
    sitting = Sitting(rules, players, seed=11)
    sitting.draw_first_dealer()
    for _game in range(6):
        ref = sitting.deal()
        rng = random.Random(sitting.games)
        while not ref.is_over:
            seat = ref.to_act
            assert seat is not None
            ref.apply(seat, rng.choice(ref.observation(seat).legal))
        outcome = ref.outcome
        assert outcome is not None
        sitting.finish(ref)
        if outcome.mattis is None:
            continue
        assert sitting.dealer == outcome.mattis  # "her gir taperen"
        upcoming = sitting.upcoming()
        first = (sitting.dealer + 1) % players
        want = outcome.mattis if next_leader is NextLeader.LOSER else first
        assert upcoming.to_act == want


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_how_to_play_says_when_phase_1_ends_as_the_engine_ends_it(name: str) -> None:
    rules = preset(name)
    players = max(3, rules.min_players)
    end = rules.phase1_end
    for lang in LANGS:
        assert _paragraph(rules, lang, "howto.h.end1").startswith(say(f"howto.end1.{end.value}", lang))
    for seed in range(GAMES):
        ref = Referee.new(rules, players, seed=seed, dealer=seed % players)
        rng = random.Random(seed)
        while True:
            obs = ref.observation(0)
            if obs.phase is not PHASE1:
                break
            seat = ref.to_act
            assert seat is not None
            holders = sum(1 for n in obs.hand_counts if n)
            if end is Phase1End.ONE_HOLDER:
                # "Fase 1 går så lenge minst to spillere har kort på hånden; et stikk som
                # er i gang, spilles ferdig."
                assert holders >= 2 or obs.stock_count or obs.table1, (name, seed)
            elif end is Phase1End.FIRST_EMPTY:
                # "Fase 1 er over når den som står for tur, ikke har noe kort å legge": whoever
                # is to lay in phase 1 has a card (or, in a fight with the stock still
                # holding cards, lays its top card: the rules in words say so).
                assert obs.hand_counts[seat] > 0 or obs.stock_count > 0, (name, seed)
            last = (seat, obs.hand_counts, obs.stock_count)
            ref.apply(seat, rng.choice(ref.observation(seat).legal))
        seat, counts, stock = last
        if end is Phase1End.ONE_HOLDER and stock == 0:
            # The move that ended phase 1 left at most one player holding cards.
            after = [n - (1 if s == seat else 0) for s, n in enumerate(counts)]
            assert sum(1 for n in after if n) <= 1 or ref.observation(0).phase is not PHASE2, (name, seed)
