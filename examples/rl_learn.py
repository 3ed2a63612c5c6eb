"""A baseline that learns: an action scorer with shared weights, warm-started by imitating
a teacher, then improved by self-play policy gradient against an opponent pool.

NumPy only (no PyTorch), one CPU thread, seeded; it prints its settings, the data it
used, the scorer's agreement with its teacher on decisions it was not trained on, its
CPU time, a learning curve and the evaluation table (loss rates with 95% Wilson
intervals: the learner, the lowest-card rule and ``medium`` each in one seat against
two ``easy`` and against two ``medium`` bots on the same fresh seeded deals, the seat
and the dealer rotating).

    python examples/rl_learn.py --json docs/img/rl_learn_results.json --plot docs/img/rl_learn_curve.png
        # the defaults are the run docs/research.md reports
    python examples/rl_learn.py --rounds 2 --teacher-games 16 --rl-games 64 --eval-easy 30 --eval-medium 0

The policy scores every legal action from features of (observation, action) with one
small network shared by all actions (:data:`FACTS`: the card's rank and suit against
trumps, against the table's top entry or the trick; in phase 1 its place in the orders
a player ranks a hand by; in phase 2 how many cards each other seat holds that beat it,
whether nobody can, whether the next seat must pick up, the cheapest legal card; the
counts of cards, the phase 2 move count, ...), so that what it learns for one card
carries over to the others.  It is a function of the observation alone: no bot, no
playout at decision time.  Stage 1, imitation: DAgger rounds in the batched env
(``mattis.rl.batched.BatchedGames``): the learner plays (sampling its policy, the first
round the teacher's moves), the teacher (``--teacher``: a bot's name, or ``playout``,
:func:`best_moves`) labels every decision the learner meets with a set of moves, and
the scorer is fitted to put its probability on the set, over all labels so far.
Stage 2 (self-play): REINFORCE with a mean baseline from the final reward, the
opponents drawn per seat and episode from a pool (``easy``, ``medium`` and frozen
snapshots of the learner, asked as one batch policy).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from mattis.bots.policy import playout  # noqa: E402
from mattis.core import Phase  # noqa: E402
from mattis.lab.arena import wilson  # noqa: E402
from mattis.play import make_bot  # noqa: E402
from mattis.rl.batched import BatchedGames  # noqa: E402
from mattis.rl.encoding import offsets  # noqa: E402
from mattis.rl.gym_env import MattisEnv  # noqa: E402
from mattis.rl.opponents import BatchPolicy, OpponentPool  # noqa: E402

F32 = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]
SUIT = np.arange(52) // 13
RANK = np.arange(52) % 13
RANK_ONEHOT = np.eye(13, dtype=np.float32)[RANK]


# ---------------------------------------------------------------- features
FACTS = (
    # every phase: the card itself, its suit in hand, what is still unseen, what the next seat holds
    "rank", "trump", "in_suit", "higher_in_hand", "lower_in_hand", "same_rank", "unseen_higher", "next_higher",
    # phase 2, against the top entry
    "p2_has_top", "p2_same_suit_top", "p2_beats", "p2_diff_top", "p2_trump", "p2_higher_in_hand",
    "p2_unseen_higher", "p2_lead", "p2_next_higher",
    # phase 1, against the trick
    "p1_has_trick", "p1_above", "p1_equal", "p1_diff", "p1_same_rank", "p1_trump", "p1_higher_in_hand", "p1_lead",
    "p1_in_suit",
    # phase 2: cheapest beater of its suit, who could beat it, the last card
    "p2_cheapest_of_suit", "p2_next_can_beat", "p2_unseen_beaters", "p2_last_card",
    # phase 1: the card's place in the hand by the orders a player ranks cards by (value: rank,
    # trumps above; the lowest winning card by rank; the least useful losing card), whether the
    # trick is worth taking (its best card a jack or better, or a trump in it), a hand of keepers
    "p1_lowest_value", "p1_lowest_above", "p1_lowest_below", "p1_worth_taking", "p1_worth_and_lowest_above",
    "p1_lead_lowest_value", "p1_keepers", "p1_value_place",
    # phase 2: how many cards the next seat (and the seats after it) hold that beat the card, nobody
    # can beat it, the cheapest legal card by cost (rank, a trump 14 dearer, a lead the next seat
    # cannot answer 8 cheaper, going out first) and the card's place in that order
    "p2_next_beaters", "p2_rest_beaters", "p2_next_cannot", "p2_rest_cannot", "p2_unbeatable", "p2_all_beaters",
    "p2_safe_lead", "p2_cheapest", "p2_cost_place", "p2_second_cheapest", "p2_lead_nobody_beats",
    "p2_answer_next_cannot", "p2_my_unbeatable", "p2_going_out", "p2_value", "p2_beats_unbeatable",
    # phase 2: what the trick does next: the card completes it, the next seat must pick up the first
    # entry (its value; whether it is mine), hand sizes against the others'
    "p2_beats_completes", "p2_next_picks_first", "p2_next_picks_mine", "p2_lead_next_cannot_value",
    "p2_first_value", "p2_completes", "p2_lead_over_smallest", "p2_next_count", "p2_wins_trick_for_good",
    "p2_nobody_answers",
)

BASIC = FACTS.index("p1_lowest_value")
"""The facts before this index are the basic set (``--facts basic``): no hand orders, no
counts of the other seats' beaters."""


class Features:
    """(observation, action) features for every action of a batch: ``(B, actions, size)``.

    A card action's row: its rank one-hot, then :data:`FACTS` (``column(name)`` gives a
    fact's column); the chance and pickup actions: a one-hot of the two, the table's
    size, a hand of keepers (for the chance); every row: the context (phase, counts,
    stock, trick, the phase 2 move and repetition counts, ...)."""

    def __init__(self, players: int, actions: int, basic: bool = False, phase2_cap: int = 10000) -> None:
        self.n = n = players
        self.actions = actions
        self.basic = basic
        """Only the first :data:`BASIC` facts (the others' columns stay zero)."""
        self.o = offsets(players)
        self.moves_scale = phase2_cap / 400
        """The tensor holds phase 2 moves / the cap; the feature is moves / 400 whatever the cap."""
        self.per_card = 13 + len(FACTS)
        self.context = 12 + 2 * n
        self.size = self.per_card + 4 + self.context

    def column(self, name: str) -> int:
        """The column of one of :data:`FACTS` in a card action's row."""
        return 13 + FACTS.index(name)

    def block(self, obs: F32, name: str, size: int) -> F32:
        at = self.o[name]
        return obs[:, at:at + size]

    def seats52(self, obs: F32, name: str) -> F32:
        return self.block(obs, name, 52 * self.n).reshape(obs.shape[0], self.n, 52)

    def __call__(self, obs: F32) -> F32:
        b = obs.shape[0]
        n = self.n
        f32 = np.float32
        phase = self.block(obs, "phase", 3)
        p1, p2 = phase[:, 0:1], phase[:, 1:2]
        hand = self.block(obs, "hand", 52)
        trump = self.block(obs, "trump", 4)
        is_trump = trump[:, SUIT]
        hs = hand.reshape(b, 4, 13)
        in_suit = hs.sum(2)[:, SUIT] / 13
        higher_in_hand = higher_same(hand) / 12
        lower_in_hand = (hs.cumsum(2) - hs).reshape(b, 52) / 12
        same_rank = hs.sum(1)[:, RANK] / 4
        known = self.seats52(obs, "known")
        seen = hand + self.block(obs, "out", 52) + self.seats52(obs, "piles").sum(1) + self.seats52(
            obs, "table1").sum(1) + self.seats52(obs, "table2").sum(1) + known[:, 1:].sum(1)
        unseen52 = (seen < 0.5).astype(f32)
        unseen = unseen52.reshape(b, 4, 13)
        unseen_higher = higher_same(unseen52) / 12
        unseen_trumps = trumps_in(unseen52, trump) / 13
        nxt = known[:, 1].reshape(b, 4, 13)
        next_higher = higher_same(known[:, 1]) / 12
        # phase 2: the entry to beat
        top = self.block(obs, "table2_top", 52).reshape(b, 4, 13)
        has_top = top.sum((1, 2))[:, None]
        top_suit = top.sum(2)
        top_rank = (top.sum(1) * np.arange(13, dtype=f32)).sum(1)[:, None]
        same_suit_top = top_suit[:, SUIT]
        higher = (RANK[None, :] > top_rank).astype(f32)
        top_trump = (top_suit * trump).sum(1, keepdims=True)
        beats_top = np.maximum(same_suit_top * higher, is_trump * (1 - top_trump))
        beats = has_top * beats_top
        diff_top = same_suit_top * (RANK[None, :] - top_rank) / 12
        # phase 1: the trick on the table
        t1_all = self.seats52(obs, "table1").sum(1)
        t1 = t1_all.reshape(b, 4, 13)
        t1_ranks = t1.sum(1)
        has_t1 = (t1_ranks.sum(1) > 0).astype(f32)[:, None]
        t1_max = np.where(t1_ranks > 0, np.arange(13, dtype=f32), -1).max(1)[:, None]
        gt_t1 = has_t1 * (RANK[None, :] > t1_max)
        eq_t1 = has_t1 * (RANK[None, :] == t1_max)
        diff_t1 = has_t1 * (RANK[None, :] - t1_max) / 12
        t1_same_rank = (t1_ranks[:, RANK] > 0).astype(f32)
        # the cheapest card of its suit that beats the top entry; who could beat the card laid
        beat_s = beats.reshape(b, 4, 13) * hs
        cheapest = ((beat_s.cumsum(2) == 1) & (beat_s > 0)).reshape(b, 52).astype(f32)
        next_trumps = (nxt.sum(2) * trump).sum(1, keepdims=True)
        next_can_beat = np.maximum((next_higher > 0), (1 - is_trump) * (next_trumps > 0)).astype(f32)
        unseen_beaters = unseen_higher * 12 / 13 + (1 - is_trump) * unseen_trumps
        counts = self.block(obs, "hand_counts", n) * 52
        mine = counts[:, 0:1]
        last_card = (mine < 1.5).astype(f32)
        # phase 1: the orders of the hand (value = rank, a known trump 13 above)
        value = RANK[None, :] + 13 * is_trump
        above = hand * gt_t1
        below = hand * has_t1 * (RANK[None, :] < t1_max)
        code = np.arange(52)[None, :] / 52
        key_v = value * 64 + code
        key_r = (RANK[None, :] * 32 + value) * 64 + code
        value_place = lower_count(hand, key_v)
        lowest_value = hand * (value_place == 0)
        lowest_above = above * (lower_count(above, key_r) == 0)
        lowest_below = below * (lower_count(below, key_v) == 0)
        pot_trump = trumps_in(t1_all, trump) > 0
        worth = ((t1_max >= 9) | pot_trump).astype(f32) * has_t1
        keepers = ((hand * (RANK[None, :] < 9)).sum(1, keepdims=True) == 0).astype(f32)
        # phase 2: who could beat each card, the cheapest legal card by cost
        next_beaters = higher_same(known[:, 1]) + (1 - is_trump) * trumps_in(known[:, 1], trump)
        rest = known[:, 2:].sum(1)
        rest_beaters = higher_same(rest) + (1 - is_trump) * trumps_in(rest, trump)
        all_beaters = next_beaters + rest_beaters + higher_same(unseen52) + (1 - is_trump) * unseen_trumps * 13
        unbeatable = (all_beaters == 0).astype(f32)
        my_unbeatable = (hand * unbeatable).sum(1, keepdims=True) / 13
        legal2 = hand * np.where(has_top > 0, beats_top, 1)
        next_known = (known[:, 1].sum(1, keepdims=True) >= counts[:, 1:2] - 0.5).astype(f32)
        next_cannot = (next_beaters == 0).astype(f32)
        rest_cannot = (rest_beaters == 0).astype(f32)
        safe = (1 - has_top) * next_known * next_cannot
        cost = RANK[None, :] + 14 * is_trump - 8 * safe - 100 * last_card
        cost_place = lower_count(legal2, cost * 64 + code)
        first = self.block(obs, "table2_first", 52)
        first_value = (first * value).sum(1, keepdims=True) / 25
        first_mine = (first * self.seats52(obs, "table2")[:, 0]).sum(1, keepdims=True)
        need = self.block(obs, "trick_need", 1) * n
        on_table = self.block(obs, "table2_count", 1) * n
        completes = ((need > 0) & (on_table + 1 >= need - 0.01)).astype(f32)
        smallest_other = counts[:, 1:].min(1, keepdims=True)
        columns = (
            RANK[None, :] / 12, is_trump, in_suit, higher_in_hand, lower_in_hand, same_rank,
            unseen_higher, next_higher,
            p2 * has_top, p2 * same_suit_top, p2 * beats, p2 * diff_top, p2 * is_trump, p2 * higher_in_hand,
            p2 * unseen_higher, p2 * (1 - has_top), p2 * next_higher,
            p1 * has_t1, p1 * gt_t1, p1 * eq_t1, p1 * diff_t1, p1 * t1_same_rank, p1 * is_trump,
            p1 * higher_in_hand, p1 * (1 - has_t1), p1 * in_suit,
            p2 * cheapest, p2 * next_can_beat, p2 * unseen_beaters, p2 * last_card,
            p1 * lowest_value, p1 * lowest_above, p1 * lowest_below, p1 * worth, p1 * worth * lowest_above,
            p1 * (1 - has_t1) * lowest_value, p1 * keepers, p1 * value_place / 12,
            p2 * next_beaters / 13, p2 * rest_beaters / 13, p2 * next_cannot, p2 * rest_cannot, p2 * unbeatable,
            p2 * all_beaters / 13, p2 * safe, p2 * legal2 * (cost_place == 0), p2 * np.minimum(cost_place, 6) / 6,
            p2 * legal2 * (cost_place == 1), p2 * (1 - has_top) * next_cannot * rest_cannot,
            p2 * has_top * next_cannot, p2 * my_unbeatable, p2 * last_card, p2 * value / 25,
            p2 * beats * unbeatable,
            p2 * beats * completes, p2 * has_top * next_cannot * first_value, p2 * has_top * next_cannot * first_mine,
            p2 * (1 - has_top) * next_cannot * value / 25, p2 * first_value, p2 * completes,
            p2 * (mine - smallest_other) / 20, p2 * counts[:, 1:2] / 20, p2 * beats * completes * unbeatable,
            p2 * has_top * next_cannot * rest_cannot,
        )
        assert len(columns) == len(FACTS)
        card = np.stack([np.broadcast_to(c, (b, 52)) for c in columns], axis=2).astype(f32)
        card = np.concatenate([np.broadcast_to(RANK_ONEHOT, (b, 52, 13)), card], axis=2)
        x = np.zeros((b, self.actions, self.size), f32)
        x[:, :52, :self.per_card] = card
        pc = self.per_card
        x[:, 52:, pc:pc + 2] = np.eye(2, dtype=f32)[None, :self.actions - 52]
        x[:, 52:, pc + 2] = self.block(obs, "table2_count", 1)
        x[:, 52, pc + 3] = (p1 * keepers)[:, 0]
        ctx = np.concatenate([
            phase[:, :2], counts / 20, self.block(obs, "tricks_won", n) * 26 / 10,
            self.block(obs, "stock", 1) * 52 / 30, self.block(obs, "table2_count", 1),
            self.block(obs, "trick_need", 1), self.block(obs, "phase2_moves", 1) * self.moves_scale,
            self.block(obs, "repetitions", 1), unseen_trumps, (hand.reshape(b, 4, 13).sum(2) * trump).sum(
                1, keepdims=True) / 13, unseen.sum((1, 2))[:, None] / 52, has_top, has_t1,
        ], axis=1).astype(f32)
        x[:, :, pc + 4:] = ctx[:, None, :]
        if self.basic:
            x[:, :, 13 + BASIC:pc] = 0
            x[:, :, pc + 3] = 0
        return x


def higher_same(cards: F32) -> F32:
    """For each card: how many of ``cards`` (``(B, 52)`` 0/1) are higher in its suit."""
    s = cards.reshape(cards.shape[0], 4, 13)
    out: F32 = (s[:, :, ::-1].cumsum(2)[:, :, ::-1] - s).reshape(cards.shape[0], 52)
    return out


def trumps_in(cards: F32, trump: F32) -> F32:
    """How many of ``cards`` are trumps: ``(B, 1)``."""
    out: F32 = (cards.reshape(cards.shape[0], 4, 13).sum(2) * trump).sum(1, keepdims=True)
    return out


def lower_count(chosen: F32, key: npt.NDArray[np.float64]) -> F32:
    """For each card: how many ``chosen`` cards have a lower ``key`` (``(B, 52)`` each)."""
    lower = key[:, None, :] < key[:, :, None]
    out: F32 = (lower * chosen[:, None, :]).sum(2).astype(np.float32)
    return out


# ---------------------------------------------------------------- the scorer
class Scorer:
    """score(x) = w2 . relu(W1 x + b1) + b2 for each action's features x; a masked softmax
    over the legal actions is the policy.  Adam, manual gradients."""

    def __init__(self, size: int, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.p: dict[str, F32] = {
            "W1": (rng.standard_normal((size, hidden)) * math.sqrt(2 / size)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (rng.standard_normal(hidden) * math.sqrt(1 / hidden)).astype(np.float32),
            "b2": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def copy(self) -> Scorer:
        c = Scorer.__new__(Scorer)
        c.p = {k: v.copy() for k, v in self.p.items()}
        c.m, c.v, c.t = {}, {}, 0
        return c

    def forward(self, x: F32) -> tuple[F32, F32]:
        h = np.maximum(x @ self.p["W1"] + self.p["b1"], 0)
        return h @ self.p["w2"] + self.p["b2"][0], h

    def probs(self, x: F32, mask: Mask) -> tuple[F32, F32]:
        s, h = self.forward(x)
        s = np.where(mask, s, -np.inf)
        s = s - s.max(1, keepdims=True)
        e = np.exp(s)
        return e / e.sum(1, keepdims=True), h

    def step(self, x: F32, mask: Mask, actions: npt.NDArray[np.intp], weights: F32, lr: float) -> float:
        """One Adam step on sum_i weights[i] * -log p(actions[i]) / len; returns the mean
        unweighted cross-entropy."""
        p, h = self.probs(x, mask)
        rows = np.arange(len(actions))
        ce = float(-np.log(np.maximum(p[rows, actions], 1e-12)).mean())
        g = p.copy()
        g[rows, actions] -= 1
        g *= weights[:, None] / len(actions)
        self._adam(x, h, g, lr)
        return ce

    def step_sets(self, x: F32, mask: Mask, best: Mask, lr: float) -> float:
        """One Adam step on the mean of -log (the probability of the ``best`` actions
        together): the policy may put its mass on any of them; returns that mean."""
        p, h = self.probs(x, mask)
        pb = np.where(best, p, 0)
        z = np.maximum(pb.sum(1, keepdims=True), 1e-12)
        loss = float(-np.log(z).mean())
        self._adam(x, h, ((p - pb / z) / len(x)).astype(np.float32), lr)
        return loss

    def _adam(self, x: F32, h: F32, g: F32, lr: float) -> None:
        """Back-propagate ``g`` (the loss's gradient by each action's score) and step."""
        grads = {"w2": np.einsum("ba,bah->h", g, h), "b2": np.array([g.sum()], np.float32)}
        gh = g[:, :, None] * self.p["w2"][None, None, :] * (h > 0)
        grads["W1"] = np.einsum("baf,bah->fh", x, gh)
        grads["b1"] = gh.sum((0, 1))
        self.t += 1
        for k, gk in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * gk
            self.v[k] = 0.999 * self.v[k] + 0.001 * gk * gk
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] = (self.p[k] - lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)

    def act(self, feats: Features, obs: F32, mask: Mask, rng: np.random.Generator | None) -> npt.NDArray[np.intp]:
        """Sample (``rng``) or take the best legal action (``rng`` None) for each row."""
        p, _ = self.probs(feats(obs), mask)
        if rng is None:
            return np.asarray(p.argmax(1), np.intp)
        u = rng.random((p.shape[0], 1))
        chosen: npt.NDArray[np.intp] = np.minimum((p.cumsum(1) < u).sum(1), p.shape[1] - 1).astype(np.intp)
        return chosen


def batch_policy(scorer: Scorer, feats: Features, name: str, greedy: bool = True, seed: int = 0) -> BatchPolicy:
    rng = None if greedy else np.random.default_rng(seed)

    def fn(obs: F32, mask: Mask) -> npt.NDArray[np.intp]:
        return scorer.act(feats, obs, mask, rng)

    return BatchPolicy(fn, name=name)


# ---------------------------------------------------------------- the two stages
PLAYOUT_TEACHER = "playout"
"""The teacher that labels with one deterministic playout per legal action (below)."""


def teacher_sets(games: BatchedGames, teachers: dict[int, Any], easy: Any) -> tuple[Mask, npt.NDArray[np.intp]]:
    """The teacher's labels for the learner's decision now in every game, as sets of
    actions (``(games, actions)`` bool), and ``easy``'s action (the rules-of-thumb
    heuristic's, for the agreement the log reports).  A bot teacher's set is its one
    move (asked with the learner's own observation); the ``playout`` teacher's is
    :func:`best_moves`'s."""
    sets = np.zeros(games.masks.shape, bool)
    rule = np.empty(games.num_games, np.intp)
    for i in range(games.num_games):
        obs = games.state(i).observation(games.seat(i))
        rule[i] = games.space.action(easy.act(obs))
        if teachers:
            sets[i, games.space.action(teachers[i].act(obs))] = True
        else:
            sets[i] = best_moves(games, i, int(rule[i]))
    return sets, rule


def agreement(scorer: Scorer, feats: Features, obs: F32, masks: Mask, sets: Mask,
              rule: npt.NDArray[np.intp]) -> dict[str, float]:
    """On decisions with a choice: how often the scorer's best action is in the
    teacher's set (``scorer_p1``, ``scorer_p2``: phase 1, phase 2), and how often
    ``easy``'s is (``easy_p1``, ``easy_p2``)."""
    p2 = obs[:, feats.o["phase"] + 1] > 0.5
    choice = masks.sum(1) > 1
    best = np.concatenate([scorer.act(feats, obs[s:s + 512], masks[s:s + 512], None)
                           for s in range(0, len(sets), 512)])
    rows = np.arange(len(sets))
    out: dict[str, float] = {}
    for name, sel in (("p1", choice & ~p2), ("p2", choice & p2)):
        k = max(int(sel.sum()), 1)
        out["scorer_" + name] = float(sets[rows, best][sel].sum() / k)
        out["easy_" + name] = float(sets[rows, rule][sel].sum() / k)
        out[name + "_decisions"] = float(sel.sum())
    return out


def imitate(scorer: Scorer, feats: Features, a: argparse.Namespace, log: Callable[[str], None],
            on_round: Callable[[int], None], held_out: list[dict[str, float]] | None = None) -> int:
    """DAgger: each round plays ``--teacher-games`` episodes; returns the labels collected.
    Before each fit after the first, the scorer's agreement with the teacher on the
    round's new decisions (not yet trained on) is logged and appended to ``held_out``."""
    rng = np.random.default_rng(a.seed)
    obs_buf: list[npt.NDArray[np.float16]] = []
    mask_buf: list[Mask] = []
    set_buf: list[Mask] = []
    n = a.batch
    for r in range(a.rounds):
        games = BatchedGames(n, rules=a.rules, players=a.players, opponents="easy", seat="rotate",
                             dealer="rotate", engine="python")  # the teachers read each game's state()
        games.reset(seed=a.seed * 1_000_003 + 10_000 + r * 1000)
        teachers = {} if a.teacher == PLAYOUT_TEACHER else {
            i: make_bot(a.teacher, a.seed * 7919 + r * 1000 + i) for i in range(n)}
        easy = make_bot("easy", a.seed)
        ended = 0
        new_rule: list[npt.NDArray[np.intp]] = []
        first = len(set_buf)
        while ended < a.teacher_games:
            sets, rule = teacher_sets(games, teachers, easy)
            obs_buf.append(games.obs.astype(np.float16))
            mask_buf.append(games.masks.copy())
            set_buf.append(sets)
            new_rule.append(rule)
            mine = sets.argmax(1) if r == 0 else scorer.act(feats, games.obs, games.masks, rng)
            games.step(mine)
            ended += int((games.terminations | games.truncations).sum())
        if r > 0:
            g = agreement(scorer, feats, np.concatenate(obs_buf[first:]).astype(np.float32),
                          np.concatenate(mask_buf[first:]), np.concatenate(set_buf[first:]), np.concatenate(new_rule))
            g["round"] = r + 1
            if held_out is not None:
                held_out.append(g)
            log(f"  round {r + 1}'s new decisions before fitting: the scorer plays a teacher's move in "
                f"{g['scorer_p1']:.3f} of phase 1 and {g['scorer_p2']:.3f} of phase 2 decisions with a choice "
                f"({g['p1_decisions']:.0f} / {g['p2_decisions']:.0f}); easy in {g['easy_p1']:.3f} / "
                f"{g['easy_p2']:.3f}")
        obs = np.concatenate(obs_buf).astype(np.float32)
        masks = np.concatenate(mask_buf)
        best = np.concatenate(set_buf)
        loss = fit(scorer, feats, obs, masks, best, a.epochs, a.lr, rng)
        log(f"  imitation round {r + 1}/{a.rounds}: {len(best)} labels, cross-entropy {loss:.3f}")
        on_round(r)
    return sum(len(x) for x in set_buf)


def fit(scorer: Scorer, feats: Features, obs: F32, masks: Mask, best: Mask, epochs: int,
        lr: float, rng: np.random.Generator, minibatch: int = 256) -> float:
    """``epochs`` passes of :meth:`Scorer.step_sets` over the labels; the last pass's mean loss."""
    loss = 0.0
    for _ in range(epochs):
        order = rng.permutation(len(best))
        tot, k = 0.0, 0
        for s in range(0, len(order) - minibatch + 1, minibatch):
            idx = order[s:s + minibatch]
            tot += scorer.step_sets(feats(obs[idx]), masks[idx], best[idx], lr)
            k += 1
        loss = tot / max(k, 1)
    return loss


def best_moves(games: BatchedGames, i: int, easy_action: int) -> Mask:
    """The ``playout`` teacher's label for the learner's decision in game ``i``: in
    phase 2, each legal action is tried on the game's own state and played to the end
    with every seat (the learner too) following the rules-of-thumb heuristic (one
    deterministic playout per action: a label made in training only, the policy never
    sees it); the label is ``easy``'s action if the learner does not lose after it (or
    loses after every action), else every action after which it does not lose.  In
    phase 1, and with one legal action, ``easy``'s action (what ``medium`` plays there).
    This is ``medium``'s choice made exact: one greedy playout per move, no sampling."""
    mask = games.masks[i]
    out: Mask = np.zeros(mask.shape, bool)
    state, seat = games.state(i), games.seat(i)
    legal = np.flatnonzero(mask)
    if state.phase is not Phase.SHED or len(legal) < 2:
        out[easy_action] = True
        return out
    safe = np.zeros(len(legal), bool)
    for j, a in enumerate(legal.tolist()):
        after = state.clone()
        after.apply(games.space.move(a))
        playout(after, random.Random(0))
        safe[j] = seat not in after.losers
    if not safe.any() or safe[int(np.flatnonzero(legal == easy_action)[0])]:
        out[easy_action] = True
    else:
        out[legal[safe]] = True
    return out


def advantages(returns: F32, baseline: float) -> F32:
    """REINFORCE's weights for :meth:`Scorer.step` (which lowers ``weight * -log p``): the
    return less the baseline, so a lost game's actions (return -1, below the baseline)
    become less likely and a game got out of more likely."""
    out: F32 = returns - np.float32(baseline)
    return out


def self_play(scorer: Scorer, feats: Features, a: argparse.Namespace, log: Callable[[str], None],
              on_chunk: Callable[[int], None]) -> tuple[int, int]:
    """REINFORCE against an opponent pool; returns (episodes, learner decisions)."""
    rng = np.random.default_rng(a.seed + 1)
    pool = OpponentPool(base=tuple(a.pool.split(",")), max_added=a.snapshots, base_weight=0.5)
    n = a.batch
    games = BatchedGames(n, rules=a.rules, players=a.players, opponents=pool, seat="rotate", dealer="rotate")
    games.reset(seed=a.seed * 1_000_003 + 500_000)
    traj: list[list[tuple[npt.NDArray[np.float16], Mask, int]]] = [[] for _ in range(n)]
    done_obs: list[npt.NDArray[np.float16]] = []
    done_mask: list[Mask] = []
    done_act: list[int] = []
    done_ret: list[float] = []
    episodes = decisions = 0
    baseline = -1.0 / a.players
    next_snapshot = a.snapshot_every
    chunk = 0
    while episodes < a.rl_games:
        acts = scorer.act(feats, games.obs, games.masks, rng)
        obs16 = games.obs.astype(np.float16)
        for i in range(n):
            traj[i].append((obs16[i], games.masks[i].copy(), int(acts[i])))
        games.step(acts)
        decisions += n
        for i in np.flatnonzero(games.terminations | games.truncations).tolist():
            ret = float(games.rewards[i])
            for o_, m_, a_ in traj[i]:
                done_obs.append(o_)
                done_mask.append(m_)
                done_act.append(a_)
                done_ret.append(ret)
            traj[i] = []
            episodes += 1
        if len(done_act) >= a.update_size:
            ret_arr = np.array(done_ret, np.float32)
            adv = advantages(ret_arr, baseline)
            baseline = 0.9 * baseline + 0.1 * float(ret_arr.mean())
            obs = np.array(done_obs, np.float32)
            masks = np.array(done_mask)
            acts_arr = np.array(done_act, np.intp)
            order = rng.permutation(len(acts_arr))
            for s in range(0, len(order), 512):
                idx = order[s:s + 512]
                scorer.step(feats(obs[idx]), masks[idx], acts_arr[idx],
                            (adv[idx] * len(idx) / 512).astype(np.float32), a.rl_lr)
            done_obs, done_mask, done_act, done_ret = [], [], [], []
        if episodes >= next_snapshot:
            pool.add(batch_policy(scorer.copy(), feats, f"snapshot{episodes}", greedy=False,
                                  seed=a.seed + episodes))
            games.set_opponents(pool)
            next_snapshot += a.snapshot_every
        if episodes >= (chunk + 1) * a.curve_every:
            chunk += 1
            on_chunk(episodes)
    log(f"  self-play: {episodes} episodes, {decisions} learner decisions, pool {a.pool} + "
        f"{len(pool.added)} snapshots")
    return episodes, decisions


# ---------------------------------------------------------------- evaluation
Player = Callable[[MattisEnv, F32, Mask], int]


def lowest_card(env: MattisEnv, obs: F32, mask: Mask) -> int:
    """The lowest-ranked legal single card; otherwise the first legal action (as in
    examples/rl_pettingzoo_random.py)."""
    legal = np.flatnonzero(mask)
    singles = [int(x) for x in legal if x < 52]
    if singles:
        return min(singles, key=lambda c: (c % 13, c // 13))
    return int(legal[0])


def bot_player(name: str, seed: int) -> Player:
    bot = make_bot(name, seed)

    def play(env: MattisEnv, obs: F32, mask: Mask) -> int:
        ref = env.referee
        assert ref is not None
        return env.space.action(bot.act(ref.observation(env.seat)))

    return play


def learner_player(scorer: Scorer, feats: Features) -> Player:
    def play(env: MattisEnv, obs: F32, mask: Mask) -> int:
        return int(scorer.act(feats, obs[None, :], mask[None, :], None)[0])

    return play


def losses(player: Player, opponent: str, games: int, rules: str, players: int, seed: int) -> int:
    """Losses of ``player`` in ``games`` fresh deals (seeded ``seed``, the seat and the
    dealer rotating by the env's seed scheme) against two ``opponent`` bots."""
    # the Python path: a bot player reads the seat's observation from the env's referee
    env = MattisEnv(rules=rules, players=players, opponents=opponent, seat="rotate", dealer="rotate",
                    engine="python")
    obs, _ = env.reset(seed=seed)
    lost = 0
    for _ in range(games):
        while True:
            obs, reward, terminated, truncated, _ = env.step(player(env, obs, env.action_masks()))
            if terminated or truncated:
                lost += float(reward) < 0
                obs, _ = env.reset()
                break
    return lost


def table_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The evaluation table in Markdown (as docs/research.md quotes it)."""
    lines = ["| player | opponents | games | lost | loss rate | 95% CI |", "|---|---|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['player']} | 2x {r['opponents']} | {r['games']} | {r['lost']} | {r['loss']:.3f} | "
                     f"[{r['lo']:.3f}, {r['hi']:.3f}] |")
    return lines


# ---------------------------------------------------------------- the recipe
def parser() -> argparse.ArgumentParser:
    """The command line (its defaults are the run docs/research.md reports)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--teacher", default="medium", help="the teacher of stage 1: a bot's name, or playout (best_moves)")
    ap.add_argument("--rounds", type=int, default=5, help="DAgger rounds")
    ap.add_argument("--teacher-games", type=int, default=200, help="episodes a DAgger round plays")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--facts", choices=("basic", "full"), default="basic",
                    help="the scorer's features: every fact, or the basic set (FACTS up to BASIC)")
    ap.add_argument("--batch", type=int, default=32, help="games stepped together")
    ap.add_argument("--rl-games", type=int, default=3000, help="self-play episodes (stage 2)")
    ap.add_argument("--rl-lr", type=float, default=1e-3)
    ap.add_argument("--update-size", type=int, default=4096, help="learner decisions per policy-gradient update")
    ap.add_argument("--pool", default="easy,medium", help="the pool's fixed members (bot names)")
    ap.add_argument("--snapshots", type=int, default=5, help="frozen snapshots kept in the pool")
    ap.add_argument("--snapshot-every", type=int, default=500, help="self-play episodes between snapshots")
    ap.add_argument("--curve-games", type=int, default=100, help="games against two easy per curve point")
    ap.add_argument("--curve-every", type=int, default=500, help="self-play episodes between curve points")
    ap.add_argument("--eval-easy", type=int, default=400, help="evaluation games against two easy")
    ap.add_argument("--eval-medium", type=int, default=400, help="evaluation games against two medium")
    ap.add_argument("--eval-seed", type=int, default=2_000_000)
    ap.add_argument("--json", type=Path, help="write the curve, the table and the counts here")
    ap.add_argument("--plot", type=Path, help="draw the learning curve here (needs matplotlib)")
    ap.add_argument("--save", type=Path, help="write the trained policy here (a checkpoint: load_checkpoint)")
    return ap


CHECKPOINT_KEYS = ("rules", "players", "facts", "hidden", "seed", "teacher")
"""The settings a checkpoint records (besides the weights); ``facts`` and ``hidden``
rebuild the features and the network."""


def save_checkpoint(path: Path, scorer: Scorer, a: argparse.Namespace, train_cpu_s: float) -> None:
    """The scorer's weights and the settings that rebuild its features (NumPy ``.npz``,
    no pickled objects)."""
    settings = {k: getattr(a, k) for k in CHECKPOINT_KEYS} | {
        "train_cpu_s": round(train_cpu_s), "command": "python examples/rl_learn.py " + " ".join(sys.argv[1:])}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.savez_compressed(f, **scorer.p, settings=np.asarray(json.dumps(settings), np.str_))


def load_checkpoint(path: Path) -> tuple[Scorer, Features, dict[str, Any]]:
    """A saved policy: its scorer, its features and its settings
    (``learner_player(scorer, feats)`` plays it in a :class:`MattisEnv`)."""
    with np.load(path, allow_pickle=False) as f:
        settings: dict[str, Any] = json.loads(str(f["settings"]))
        weights = {k: f[k].astype(np.float32) for k in ("W1", "b1", "w2", "b2")}
    games0 = BatchedGames(1, rules=settings["rules"], players=settings["players"])
    feats = Features(settings["players"], games0.actions, basic=settings["facts"] == "basic",
                     phase2_cap=games0.rules.phase2_cap)
    scorer = Scorer(feats.size, settings["hidden"], settings["seed"])
    if weights["W1"].shape != scorer.p["W1"].shape:
        raise ValueError(f"{path}: weights of shape {weights['W1'].shape}, features need {scorer.p['W1'].shape}")
    scorer.p = weights
    return scorer, feats, settings


def main(argv: Sequence[str] | None = None) -> int:
    a = parser().parse_args(argv)

    def log(line: str) -> None:
        print(line, flush=True)

    log(f"{a.rules}, {a.players} players, seed {a.seed}; teacher {a.teacher}: {a.rounds} DAgger rounds x "
        f"{a.teacher_games} episodes, {a.epochs} epochs, lr {a.lr}; scorer: (observation, action) features ({a.facts}) "
        f"-> {a.hidden} relu -> 1, shared by all actions; self-play: {a.rl_games} episodes, lr {a.rl_lr}, "
        f"pool {a.pool} + {a.snapshots} snapshots every {a.snapshot_every}; {a.batch} games a batch")
    random.seed(a.seed)
    np.random.seed(a.seed)
    games0 = BatchedGames(1, rules=a.rules, players=a.players)
    feats = Features(a.players, games0.actions, basic=a.facts == "basic", phase2_cap=games0.rules.phase2_cap)
    scorer = Scorer(feats.size, a.hidden, a.seed)
    start = time.process_time()
    curve: list[dict[str, float]] = []

    def point(stage: str, x: int) -> None:
        if a.curve_games <= 0:
            return
        t = time.process_time()
        k = losses(learner_player(scorer, feats), "easy", a.curve_games, a.rules, a.players, a.eval_seed + 1_000_000)
        lo, hi = wilson(k, a.curve_games)
        curve.append({"stage": 0 if stage.startswith("imitation") else 1, "x": x, "loss": k / a.curve_games, "lo": lo,
                      "hi": hi})
        eval_cpu[0] += time.process_time() - t
        log(f"  curve: after {stage} {x}: loss rate {k / a.curve_games:.3f} vs two easy ({a.curve_games} games)")

    eval_cpu = [0.0]
    point("imitation round", 0)
    held_out: list[dict[str, float]] = []
    labels = imitate(scorer, feats, a, log, lambda r: point("imitation round", r + 1), held_out)
    t1 = time.process_time() - start - eval_cpu[0]
    episodes, decisions = self_play(scorer, feats, a, log, lambda e: point("self-play episodes", e))
    train_cpu = time.process_time() - start - eval_cpu[0]
    log(f"data: {labels} teacher labels, {episodes} self-play episodes ({decisions} learner decisions); "
        f"training CPU {train_cpu:.0f} s (imitation {t1:.0f} s), curve CPU {eval_cpu[0]:.0f} s")
    if a.save:
        save_checkpoint(a.save, scorer, a, train_cpu)
        log(f"checkpoint: {a.save}")

    rows: list[dict[str, Any]] = []
    players: list[tuple[str, Player]] = [("learner", learner_player(scorer, feats)), ("lowest card", lowest_card),
                                         ("medium", bot_player("medium", a.seed))]
    for opp, count in (("easy", a.eval_easy), ("medium", a.eval_medium)):
        if count <= 0:
            continue
        for name, player in players:
            k = losses(player, opp, count, a.rules, a.players, a.eval_seed)
            lo, hi = wilson(k, count)
            rows.append({"player": name, "opponents": opp, "games": count, "lost": k, "loss": k / count,
                         "lo": lo, "hi": hi})
    log(f"evaluation: the same {a.eval_easy} (easy) / {a.eval_medium} (medium) deals for each player, "
        f"seed {a.eval_seed}; total CPU {time.process_time() - start:.0f} s")
    for line in table_lines(rows):
        log(line)
    for opp in ("easy", "medium"):
        mine = [r for r in rows if r["opponents"] == opp]
        if not mine:
            continue
        hi = mine[0]["hi"]
        others = {r["player"]: r["loss"] for r in mine[1:]}
        verdict = ", ".join(f"{'beats' if hi < v else 'does not beat'} {p} ({v:.3f})" for p, v in others.items())
        log(f"vs 2x {opp}: learner's upper bound {hi:.3f}: {verdict}")
    if a.json:
        a.json.write_text(json.dumps({"settings": vars(a) | {"json": str(a.json), "plot": str(a.plot)},
                                      "curve": curve, "table": rows, "labels": labels, "held_out": held_out,
                                      "episodes": episodes, "train_cpu_s": round(train_cpu)},
                                     indent=1, default=str) + "\n")
    if a.plot and curve:
        plot(curve, a.plot, rows)
    return 0


def plot(curve: list[dict[str, float]], path: Path, rows: list[dict[str, Any]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    xs = list(range(len(curve)))
    ys = [c["loss"] for c in curve]
    ax.errorbar(xs, ys, yerr=[[y - c["lo"] for y, c in zip(ys, curve, strict=True)],
                              [c["hi"] - y for y, c in zip(ys, curve, strict=True)]],
                marker="o", capsize=3, label="learner (greedy) vs two easy")
    ax.set_xticks(xs, [("D" if c["stage"] == 0 else "S") + str(int(c["x"])) for c in curve], fontsize=7)
    for r in rows:
        if r["opponents"] == "easy" and r["player"] != "learner":
            ax.axhline(r["loss"], linestyle="--", color="grey" if r["player"] == "medium" else "red",
                       label=f"{r['player']} vs two easy ({r['loss']:.2f})")
    ax.set_xlabel("D k: after DAgger round k;  S k: after k self-play episodes")
    ax.set_ylabel("loss rate (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)


if __name__ == "__main__":
    sys.exit(main())
