"""The learning recipe (examples/rl_learn.py): its scorer's gradients are the gradients of
its loss, its features read the table, and a tiny seeded imitation run learns (its loss
rate against two ``easy`` bots on held-out deals falls far below the untrained
scorer's).  docs/research.md quotes a tiny seeded run's output; tests/rl/test_rl_examples_docs.py
checks it."""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the research extra is not installed: pip install 'mattis[rl]'")

from mattis.bots.policy import playout  # noqa: E402
from mattis.core import Phase  # noqa: E402
from mattis.play import make_bot  # noqa: E402
from mattis.rl.batched import BatchedGames  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_learn.py"


def recipe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_learn", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rl_learn"] = module
    spec.loader.exec_module(module)
    return module


R = recipe()


def positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks met by a random learner against ``easy`` bots."""
    g = BatchedGames(games, rules="mattis", players=3, opponents="easy", seat="rotate")
    g.reset(seed=seed)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    for _ in range(40):
        obs.append(g.obs.copy())
        masks.append(g.masks.copy())
        acts = [int(rng.choice(np.flatnonzero(m))) for m in g.masks]
        g.step(np.array(acts))
    return np.concatenate(obs), np.concatenate(masks)


def test_the_scorer_steps_along_the_gradient_of_its_loss() -> None:
    obs, masks = positions(4, 1)
    feats = R.Features(3, 54)
    x = feats(obs[:16]).astype(np.float64).astype(np.float32)
    m = masks[:16]
    acts = np.array([int(np.flatnonzero(row)[-1]) for row in m], np.intp)
    weights = np.linspace(-1, 1, 16).astype(np.float32)

    def loss(s: object) -> float:
        p, _ = s.probs(x, m)  # type: ignore[attr-defined]
        return float((weights * -np.log(p[np.arange(16), acts])).mean())

    scorer = R.Scorer(feats.size, 8, 0)
    before = {k: v.copy() for k, v in scorer.p.items()}
    # the first Adam step moves each weight by about -lr * sign(gradient): compare signs with
    # a numerical gradient where it is clearly non-zero
    scorer.step(x, m, acts, weights, 1e-3)
    base = R.Scorer(feats.size, 8, 0)
    checked = 0
    for k in ("W1", "w2", "b1"):
        flat = base.p[k].reshape(-1)
        for j in range(0, flat.size, max(1, flat.size // 40)):
            old = flat[j]
            flat[j] = old + 1e-2
            up = loss(base)
            flat[j] = old - 1e-2
            down = loss(base)
            flat[j] = old
            g = (up - down) / 2e-2
            if abs(g) > 1e-3:
                moved = scorer.p[k].reshape(-1)[j] - before[k].reshape(-1)[j]
                assert np.sign(moved) == -np.sign(g), (k, j, g, moved)
                checked += 1
    assert checked >= 10


def test_the_features_see_which_card_beats_the_top_entry() -> None:
    obs, masks = positions(8, 2)
    feats = R.Features(3, 54)
    x = feats(obs)
    o = feats.o
    col = feats.column("p2_beats")
    top = obs[:, o["table2_top"]:o["table2_top"] + 52]
    trump = obs[:, o["trump"]:o["trump"] + 4]
    p2 = obs[:, o["phase"] + 1]
    seen = 0
    for i in np.flatnonzero((p2 > 0) & (top.sum(1) > 0))[:50]:
        t = int(np.flatnonzero(top[i])[0])
        ts = int(np.flatnonzero(trump[i])[0]) if trump[i].any() else -1
        for c in range(52):
            want = (c // 13 == t // 13 and c % 13 > t % 13) or (c // 13 == ts and t // 13 != ts)
            assert x[i, c, col] == float(want), (i, c, t, ts)
        seen += 1
    assert seen >= 10
    assert not x[:, :52, feats.per_card:feats.per_card + 2].any()  # the pickup/chance flags only on those actions
    assert (x[:, 52:, feats.per_card:feats.per_card + 2] == np.eye(2)).all()
    # the basic set: the same first facts and context, every later fact zero
    basic = R.Features(3, 54, basic=True)(obs)
    first, later = slice(0, 13 + R.BASIC), slice(13 + R.BASIC, feats.per_card)
    assert (basic[:, :, first] == x[:, :, first]).all() and not basic[:, :, later].any()
    assert x[:, :52, later].any()
    assert (basic[:, :, feats.per_card + 4:] == x[:, :, feats.per_card + 4:]).all()


def test_the_features_hold_the_order_the_heuristic_leads_and_answers_by_in_phase_1() -> None:
    """In phase 1 ``easy`` (the heuristic, and ``medium``) leads its least useful card
    unless every card is a keeper, and answers with the lowest winning card when the
    trick is worth taking: each such move is the one card the matching fact marks."""
    g = BatchedGames(8, rules="mattis", players=3, opponents="easy", seat="rotate", engine="python")  # state()
    g.reset(seed=4)
    feats = R.Features(3, 54)
    easy = make_bot("easy", 0)
    leads = answers = 0
    for _ in range(60):
        x = feats(g.obs)
        acts = np.empty(8, np.intp)
        for i in range(8):
            obs = g.state(i).observation(g.seat(i))
            acts[i] = g.space.action(easy.act(obs))
            if obs.phase != 1 or g.masks[i].sum() < 2:
                continue
            row = x[i, :52]
            if not obs.table1 and acts[i] < 52:
                assert np.flatnonzero(row[:, feats.column("p1_lead_lowest_value")]).tolist() == [acts[i]]
                leads += 1
            elif (obs.table1 and not obs.fighters and row[acts[i], feats.column("p1_worth_taking")]
                  and row[:, feats.column("p1_lowest_above")].any()):
                assert np.flatnonzero(row[:, feats.column("p1_worth_and_lowest_above")]).tolist() == [acts[i]]
                answers += 1
        g.step(acts)
    assert leads >= 20 and answers >= 5, (leads, answers)


def test_the_playout_teacher_labels_the_moves_that_do_not_lose_after_the_heuristic_playout() -> None:
    """Phase 2: the label is easy's move unless easy's move loses under the heuristic
    playout and another does not; then it is every move that does not lose."""
    g = BatchedGames(8, rules="mattis", players=3, opponents="easy", seat="rotate", engine="python")  # state()
    g.reset(seed=5)
    easy = make_bot("easy", 0)
    checked = other = 0
    while checked < 60:
        acts = np.empty(8, np.intp)
        for i in range(8):
            state, seat = g.state(i), g.seat(i)
            acts[i] = g.space.action(easy.act(state.observation(seat)))
            best = R.best_moves(g, i, int(acts[i]))
            assert best.any() and not (best & ~g.masks[i]).any()
            if state.phase != Phase.SHED or g.masks[i].sum() < 2:
                assert np.flatnonzero(best).tolist() == [acts[i]]
                continue
            loses = {}
            for a in np.flatnonzero(g.masks[i]).tolist():
                after = state.clone()
                after.apply(g.space.move(a))
                playout(after, random.Random(1))
                loses[a] = seat in after.losers
            if best[acts[i]]:
                assert best.sum() == 1 and (not loses[acts[i]] or all(loses.values()))
            else:
                assert loses[acts[i]] and {a for a, lost in loses.items() if not lost} == set(np.flatnonzero(best))
                other += 1
            checked += 1
        g.step(acts)
    assert other >= 1, "no decision where the heuristic's move loses and another does not"


def test_a_set_step_moves_the_probability_onto_the_set() -> None:
    obs, masks = positions(4, 6)
    feats = R.Features(3, 54)
    rows = [i for i in range(len(masks)) if masks[i].sum() >= 3][:32]
    x, m = feats(obs[rows]), masks[rows]
    best = np.zeros_like(m)
    for k, row in enumerate(m):
        best[k, np.flatnonzero(row)[-2:]] = True  # the two last legal actions
    scorer = R.Scorer(feats.size, 16, 0)
    before = (scorer.probs(x, m)[0] * best).sum(1).mean()
    losses = [scorer.step_sets(x, m, best, 1e-2) for _ in range(10)]
    after = (scorer.probs(x, m)[0] * best).sum(1).mean()
    assert after > before + 0.1 and losses[-1] < losses[0], (before, after, losses)


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
def test_a_tiny_seeded_imitation_run_learns_on_held_out_deals() -> None:
    feats = R.Features(3, 54)
    scorer = R.Scorer(feats.size, 32, 0)
    a = argparse.Namespace(seed=0, batch=16, rounds=2, teacher_games=16, teacher="medium", rules="mattis",
                           players=3, epochs=3, lr=3e-3)
    held_out = 2_000_000  # not the training deals (those are seeded from 10,000)
    untrained = R.losses(R.learner_player(scorer, feats), "easy", 40, "mattis", 3, held_out)
    labels = R.imitate(scorer, feats, a, lambda line: None, lambda r: None)
    trained = R.losses(R.learner_player(scorer, feats), "easy", 40, "mattis", 3, held_out)
    assert labels > 1000
    # 40 held-out games: the untrained scorer loses most of them, the imitator far fewer
    assert untrained >= 28 and trained <= untrained - 10, (untrained, trained)


def test_the_docs_table_is_the_committed_runs() -> None:
    """docs/research.md's table of the recipe is docs/img/rl_learn_results.json's (the run
    its command writes), and what the docs say it beats is what the table says."""
    root = Path(__file__).resolve().parents[2]
    results = json.loads((root / "docs" / "img" / "rl_learn_results.json").read_text(encoding="utf-8"))
    text = (root / "docs" / "research.md").read_text(encoding="utf-8")
    section = text[text.index("## A baseline: imitation"):text.index("### The earlier baseline")]
    want = R.table_lines(results["table"])
    assert "\n".join(want) in section
    for r in results["table"]:
        lo, hi = R.wilson(r["lost"], r["games"])
        assert (round(lo, 9), round(hi, 9)) == (round(r["lo"], 9), round(r["hi"], 9))
    # every option the command line of the docs names has the value the committed run used
    command = section[section.index("python examples/rl_learn.py"):].split("```")[0].replace("\\\n", " ")
    args = command.split()[2:]
    settings = results["settings"]
    for flag, value in zip(args[::2], args[1::2], strict=True):
        key = flag.lstrip("-").replace("-", "_")
        assert str(settings[key]) == value, (flag, value, settings[key])
    # and the script's defaults are that run (python examples/rl_learn.py reproduces it)
    defaults = vars(R.parser().parse_args([]))
    assert {k: str(v) for k, v in defaults.items() if k not in ("json", "plot", "save")} == {
        k: str(v) for k, v in settings.items() if k not in ("json", "plot", "save")}


def test_self_play_makes_a_lost_games_moves_less_likely_and_a_won_games_more() -> None:
    obs, masks = positions(4, 3)
    feats = R.Features(3, 54)
    rows = [i for i in range(len(masks)) if masks[i].sum() >= 2][:32]
    x, m = feats(obs[rows]), masks[rows]
    acts = np.array([int(np.flatnonzero(row)[0]) for row in m], np.intp)
    picked = np.arange(len(rows))
    for ret, sign in ((-1.0, -1), (0.0, 1)):
        scorer = R.Scorer(feats.size, 16, 0)
        before = scorer.probs(x, m)[0][picked, acts]
        weights = R.advantages(np.full(len(rows), ret, np.float32), -1 / 3)
        for _ in range(5):
            scorer.step(x, m, acts, weights, 1e-2)
        after = scorer.probs(x, m)[0][picked, acts]
        assert np.sign(after.mean() - before.mean()) == sign, (ret, before.mean(), after.mean())
