"""A baseline that learns: an action scorer with shared weights, warm-started by imitating
a stronger bot, then improved by self-play policy gradient against an opponent pool.

NumPy only (no PyTorch), one CPU thread, seeded; it prints its settings, the data it
used, its CPU time, a learning curve and the evaluation table (loss rates with 95%
Wilson intervals: the learner, the lowest-card rule and ``medium`` each in one seat
against two ``easy`` and against two ``medium`` bots on the same fresh seeded deals,
the seat and the dealer rotating).

    python examples/rl_learn.py --json docs/img/rl_learn_results.json --plot docs/img/rl_learn_curve.png
        # the defaults are the run docs/research.md reports (about 6 CPU minutes)
    python examples/rl_learn.py --rounds 2 --teacher-games 16 --rl-games 64 --eval-easy 30 --eval-medium 0

The policy scores every legal action from features of (observation, action) with one
small network shared by all actions (the card's rank and suit against trumps, against
the table's top entry or the trick, the cards of its suit in hand and still unseen,
the counts of cards, the phase 2 move count, ...), so that what it learns for one card
carries over to the others.  Phase 1 (stage 1, imitation): DAgger rounds in the batched
env (``mattis.rl.batched.BatchedGames``): the learner plays (sampling its policy, the
first round the teacher's moves), the teacher (``--teacher``) labels every decision
the learner meets, and the scorer is fitted by cross-entropy on all labels so far.
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
class Features:
    """(observation, action) features for every action of a batch: ``(B, actions, size)``."""

    def __init__(self, players: int, actions: int) -> None:
        self.n = n = players
        self.actions = actions
        self.o = offsets(players)
        self.per_card = 13 + 30
        self.context = 12 + 2 * n
        self.size = self.per_card + 3 + self.context

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
        ge = hs[:, :, ::-1].cumsum(2)[:, :, ::-1]
        higher_in_hand = (ge - hs).reshape(b, 52) / 12
        lower_in_hand = (hs.cumsum(2) - hs).reshape(b, 52) / 12
        same_rank = hs.sum(1)[:, RANK] / 4
        known = self.seats52(obs, "known")
        seen = hand + self.block(obs, "out", 52) + self.seats52(obs, "piles").sum(1) + self.seats52(
            obs, "table1").sum(1) + self.seats52(obs, "table2").sum(1) + known[:, 1:].sum(1)
        unseen = (seen < 0.5).astype(f32).reshape(b, 4, 13)
        unseen_higher = (unseen[:, :, ::-1].cumsum(2)[:, :, ::-1] - unseen).reshape(b, 52) / 12
        unseen_trumps = (unseen.sum(2) * trump).sum(1, keepdims=True) / 13
        nxt = known[:, 1].reshape(b, 4, 13)
        next_higher = (nxt[:, :, ::-1].cumsum(2)[:, :, ::-1] - nxt).reshape(b, 52) / 12
        # phase 2: the entry to beat
        top = self.block(obs, "table2_top", 52).reshape(b, 4, 13)
        has_top = top.sum((1, 2))[:, None]
        top_suit = top.sum(2)
        top_rank = (top.sum(1) * np.arange(13, dtype=f32)).sum(1)[:, None]
        same_suit_top = top_suit[:, SUIT]
        higher = (RANK[None, :] > top_rank).astype(f32)
        top_trump = (top_suit * trump).sum(1, keepdims=True)
        beats = has_top * np.maximum(same_suit_top * higher, is_trump * (1 - top_trump))
        diff_top = same_suit_top * (RANK[None, :] - top_rank) / 12
        # phase 1: the trick on the table
        t1 = self.seats52(obs, "table1").sum(1).reshape(b, 4, 13)
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
        last_card = (self.block(obs, "hand_counts", 1) * 52 < 1.5).astype(f32)
        card = np.stack([np.broadcast_to(c, (b, 52)) for c in (
            RANK[None, :] / 12, is_trump, in_suit, higher_in_hand, lower_in_hand, same_rank,
            unseen_higher, next_higher,
            p2 * has_top, p2 * same_suit_top, p2 * beats, p2 * diff_top, p2 * is_trump, p2 * higher_in_hand,
            p2 * unseen_higher, p2 * (1 - has_top), p2 * next_higher,
            p1 * has_t1, p1 * gt_t1, p1 * eq_t1, p1 * diff_t1, p1 * t1_same_rank, p1 * is_trump,
            p1 * higher_in_hand, p1 * (1 - has_t1), p1 * in_suit,
            p2 * cheapest, p2 * next_can_beat, p2 * unseen_beaters, p2 * last_card,
        )], axis=2).astype(f32)
        card = np.concatenate([np.broadcast_to(RANK_ONEHOT, (b, 52, 13)), card], axis=2)
        x = np.zeros((b, self.actions, self.size), f32)
        x[:, :52, :self.per_card] = card
        x[:, 52:, self.per_card:self.per_card + 2] = np.eye(2, dtype=f32)[None, :self.actions - 52]
        x[:, 52:, self.per_card + 2] = self.block(obs, "table2_count", 1)
        counts = self.block(obs, "hand_counts", n) * 52 / 20
        ctx = np.concatenate([
            phase[:, :2], counts, self.block(obs, "tricks_won", n) * 26 / 10,
            self.block(obs, "stock", 1) * 52 / 30, self.block(obs, "table2_count", 1),
            self.block(obs, "trick_need", 1), self.block(obs, "phase2_moves", 1) * 5,
            self.block(obs, "repetitions", 1), unseen_trumps, (hand.reshape(b, 4, 13).sum(2) * trump).sum(
                1, keepdims=True) / 13, unseen.sum((1, 2))[:, None] / 52, has_top, has_t1,
        ], axis=1).astype(f32)
        x[:, :, self.per_card + 3:] = ctx[:, None, :]
        return x


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
        return ce

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
def teacher_actions(games: BatchedGames, teachers: dict[int, Any]) -> npt.NDArray[np.intp]:
    """The teacher's action for the learner's decision now in every game (a teacher bot
    per game, asked with the learner's own observation)."""
    out = np.empty(games.num_games, np.intp)
    for i in range(games.num_games):
        seat = games.seat(i)
        out[i] = games.space.action(teachers[i].act(games.state(i).observation(seat)))
    return out


def imitate(scorer: Scorer, feats: Features, a: argparse.Namespace, log: Callable[[str], None],
            on_round: Callable[[int], None]) -> int:
    """DAgger: each round plays ``--teacher-games`` episodes; returns the labels collected."""
    rng = np.random.default_rng(a.seed)
    obs_buf: list[npt.NDArray[np.float16]] = []
    mask_buf: list[Mask] = []
    act_buf: list[npt.NDArray[np.intp]] = []
    n = a.batch
    for r in range(a.rounds):
        games = BatchedGames(n, rules=a.rules, players=a.players, opponents="easy", seat="rotate",
                             dealer="rotate")
        games.reset(seed=a.seed * 1_000_003 + 10_000 + r * 1000)
        teachers = {i: make_bot(a.teacher, a.seed * 7919 + r * 1000 + i) for i in range(n)}
        ended = 0
        while ended < a.teacher_games:
            label = teacher_actions(games, teachers)
            obs_buf.append(games.obs.astype(np.float16))
            mask_buf.append(games.masks.copy())
            act_buf.append(label)
            mine = label if r == 0 else scorer.act(feats, games.obs, games.masks, rng)
            games.step(mine)
            ended += int((games.terminations | games.truncations).sum())
        obs = np.concatenate(obs_buf).astype(np.float32)
        masks = np.concatenate(mask_buf)
        acts = np.concatenate(act_buf)
        ce = fit(scorer, feats, obs, masks, acts, a.epochs, a.lr, rng)
        log(f"  imitation round {r + 1}/{a.rounds}: {len(acts)} labels, cross-entropy {ce:.3f}")
        on_round(r)
    return sum(len(x) for x in act_buf)


def fit(scorer: Scorer, feats: Features, obs: F32, masks: Mask, acts: npt.NDArray[np.intp], epochs: int,
        lr: float, rng: np.random.Generator, minibatch: int = 256) -> float:
    ce = 0.0
    w = np.ones(minibatch, np.float32)
    for _ in range(epochs):
        order = rng.permutation(len(acts))
        tot, k = 0.0, 0
        for s in range(0, len(order) - minibatch + 1, minibatch):
            idx = order[s:s + minibatch]
            tot += scorer.step(feats(obs[idx]), masks[idx], acts[idx], w, lr)
            k += 1
        ce = tot / max(k, 1)
    return ce


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
    env = MattisEnv(rules=rules, players=players, opponents=opponent, seat="rotate", dealer="rotate")
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
    ap.add_argument("--teacher", default="medium", help="the bot imitated in stage 1")
    ap.add_argument("--rounds", type=int, default=5, help="DAgger rounds")
    ap.add_argument("--teacher-games", type=int, default=200, help="episodes a DAgger round plays")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--hidden", type=int, default=64)
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
    ap.add_argument("--eval-medium", type=int, default=200, help="evaluation games against two medium")
    ap.add_argument("--eval-seed", type=int, default=2_000_000)
    ap.add_argument("--json", type=Path, help="write the curve, the table and the counts here")
    ap.add_argument("--plot", type=Path, help="draw the learning curve here (needs matplotlib)")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    a = parser().parse_args(argv)

    def log(line: str) -> None:
        print(line, flush=True)

    log(f"{a.rules}, {a.players} players, seed {a.seed}; teacher {a.teacher}: {a.rounds} DAgger rounds x "
        f"{a.teacher_games} episodes, {a.epochs} epochs, lr {a.lr}; scorer: (observation, action) features "
        f"-> {a.hidden} relu -> 1, shared by all actions; self-play: {a.rl_games} episodes, lr {a.rl_lr}, "
        f"pool {a.pool} + {a.snapshots} snapshots every {a.snapshot_every}; {a.batch} games a batch")
    random.seed(a.seed)
    np.random.seed(a.seed)
    games0 = BatchedGames(1, rules=a.rules, players=a.players)
    feats = Features(a.players, games0.actions)
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
    labels = imitate(scorer, feats, a, log, lambda r: point("imitation round", r + 1))
    t1 = time.process_time() - start - eval_cpu[0]
    episodes, decisions = self_play(scorer, feats, a, log, lambda e: point("self-play episodes", e))
    train_cpu = time.process_time() - start - eval_cpu[0]
    log(f"data: {labels} teacher labels, {episodes} self-play episodes ({decisions} learner decisions); "
        f"training CPU {train_cpu:.0f} s (imitation {t1:.0f} s), curve CPU {eval_cpu[0]:.0f} s")

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
                                      "curve": curve, "table": rows, "labels": labels, "episodes": episodes,
                                      "train_cpu_s": round(train_cpu)}, indent=1, default=str) + "\n")
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
