"""A baseline: MaskablePPO (sb3-contrib, CPU) trained against ``easy`` bots with self-play.

Needs the ``train`` extra in its own virtual environment (it pulls in PyTorch)::

    python3 -m venv .venv-ppo
    .venv-ppo/bin/pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
    .venv-ppo/bin/pip install -e '.[train]'
    .venv-ppo/bin/python examples/rl_maskable_ppo.py --budget 200000 --plot docs/img/rl_ppo_curve.png

The learner plays one seat of a 3-player Mattis game (the seat and the dealer rotate
each episode).  Its opponents come from a pool (:class:`mattis.rl.opponents.OpponentPool`):
the ``easy`` bot, and from the first snapshot on, frozen copies of the learner taken
every ``--snapshot-every`` steps (the last five kept; half the seats still draw
``easy``).  Every ``--eval-every`` steps the learner (greedy) plays ``--curve-games``
fixed deals against two ``easy`` bots; that loss rate is the learning curve.  At the
end it plays ``--eval-games`` games against ``easy`` and against ``medium`` bots,
beside a uniformly random player on the same deals, and prints the loss rates with
95% Wilson intervals (the chance level is 1/players: one loser a game).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from mattis.lab.arena import wilson
from mattis.rl.gym_env import MattisEnv
from mattis.rl.opponents import OpponentPool, PolicyFn, frozen_policy, random_policy


def loss_rate(policy: PolicyFn, opponent: str, games: int, players: int, rules: str, seed: int) -> tuple[int, int]:
    """(losses, games) of ``policy`` in the learner's seat (rotating) against ``opponent`` bots."""
    env = MattisEnv(rules=rules, players=players, opponents=opponent, seat="rotate", dealer="rotate")
    obs, _ = env.reset(seed=seed)
    losses = 0
    for _ in range(games):
        while True:
            obs, reward, terminated, truncated, _ = env.step(policy(obs, env.action_masks()))
            if terminated or truncated:
                losses += float(reward) < 0
                obs, _ = env.reset()
                break
    return losses, games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=int, default=200_000, help="learner steps to train (default 200000)")
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--snapshot-every", type=int, default=25_000, help="steps between self-play snapshots")
    ap.add_argument("--eval-every", type=int, default=20_000, help="steps between learning-curve points")
    ap.add_argument("--curve-games", type=int, default=200, help="games per learning-curve point")
    ap.add_argument("--eval-games", type=int, default=300, help="final games against each opponent")
    ap.add_argument("--medium-games", type=int, default=None, help="final games against medium (default: --eval-games)")
    ap.add_argument("--out", type=Path, default=Path("runs/ppo"), help="folder for the model and results")
    ap.add_argument("--plot", type=Path, default=None, help="write the learning curve PNG here")
    args = ap.parse_args(argv)
    if args.budget < 64:
        ap.error("--budget must be at least 64 steps")

    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
    except ImportError as e:
        raise SystemExit(f"this example needs the train extra (pip install 'mattis[train]', torch==2.13.0 "
                         f"from the CPU index first): {e}") from None

    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    pool = OpponentPool(["easy"], max_added=5, base_weight=0.5)
    env = MattisEnv(rules=args.rules, players=args.players, opponents=pool, seat="rotate", dealer="rotate")
    env.reset(seed=args.seed)
    n_steps = min(2048, max(64, args.budget // 4))
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=min(256, n_steps), learning_rate=3e-4,
                        gamma=1.0, ent_coef=0.01, seed=args.seed, verbose=0, device="cpu",
                        policy_kwargs={"net_arch": [256, 256]})
    curve: list[dict[str, float]] = []
    started = time.process_time()

    def greedy(obs: Any, mask: Any) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def point(steps: int) -> None:
        k, n = loss_rate(greedy, "easy", args.curve_games, args.players, args.rules, seed=10_000)
        lo, hi = wilson(k, n)
        curve.append({"steps": steps, "loss_rate": k / n, "lo": lo, "hi": hi,
                      "cpu_s": time.process_time() - started})
        print(f"{steps:>8} steps  loss rate vs easy {k / n:.3f} [{lo:.3f}, {hi:.3f}]  "
              f"{time.process_time() - started:.0f} CPU s", flush=True)

    class Progress(BaseCallback):  # type: ignore[misc]
        def _on_step(self) -> bool:
            t = self.num_timesteps
            if t % args.snapshot_every == 0:
                pool.add(frozen_policy(self.model))
            if t % args.eval_every == 0:
                point(t)
            return True

    point(0)
    model.learn(total_timesteps=args.budget, callback=Progress())
    if not curve or curve[-1]["steps"] != model.num_timesteps:
        point(model.num_timesteps)
    model.save(args.out / "maskable_ppo")
    train_cpu = time.process_time() - started

    table: list[dict[str, Any]] = []
    rand = random_policy(1)
    for opponent in ("easy", "medium"):
        games = args.eval_games if opponent == "easy" or args.medium_games is None else args.medium_games
        for who, policy in (("MaskablePPO", greedy), ("random", rand)):
            k, n = loss_rate(policy, opponent, games, args.players, args.rules, seed=20_000)
            lo, hi = wilson(k, n)
            table.append({"player": who, "opponents": opponent, "games": n, "losses": k,
                          "loss_rate": k / n, "lo": lo, "hi": hi})
    results = {"budget": args.budget, "rules": args.rules, "players": args.players, "seed": args.seed,
               "train_cpu_s": train_cpu, "curve": curve, "table": table}
    (args.out / "results.json").write_text(json.dumps(results, indent=2))
    print(f"\ntrained {model.num_timesteps} steps in {train_cpu:.0f} CPU s "
          f"(chance level {1 / args.players:.3f})")
    print("| player | opponents | games | loss rate | 95% CI |\n|---|---|---:|---:|---|")
    for r in table:
        print(f"| {r['player']} | 2x {r['opponents']} | {r['games']} | {r['loss_rate']:.3f} "
              f"| [{r['lo']:.3f}, {r['hi']:.3f}] |")
    if args.plot is not None:
        plot(curve, args.plot, args.players)
    return 0


def plot(curve: list[dict[str, float]], path: Path, players: int) -> None:
    """The learning curve as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = np.array([c["steps"] for c in curve])
    ys = np.array([c["loss_rate"] for c in curve])
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=110)
    ax.fill_between(xs, [c["lo"] for c in curve], [c["hi"] for c in curve], alpha=0.25, label="95% CI")
    ax.plot(xs, ys, marker="o", label="MaskablePPO (greedy) vs 2 easy bots")
    ax.axhline(1 / players, color="grey", linestyle="--", label=f"chance level 1/{players}")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("loss rate (Mattis)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


if __name__ == "__main__":
    raise SystemExit(main())
