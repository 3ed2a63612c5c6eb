"""What the per-step research interfaces cost with their tensor taken away: the
floors that bound their speed-race rows however fast the tensor is made.

Runs the speed race's own loops (:mod:`mattis.rl.speed`) for the raw engine,
PettingZoo, OpenSpiel (without and with the observation tensor) and Gymnasium, then
PettingZoo with ``observe()`` handing back one prepared tensor (the mask is still the
real one, so the loop plays the same legal games) and Gymnasium with
``Encoder.encode`` handing back one prepared tensor.  Prints µs per decision (one over
decisions per CPU second) and the ratio to the raw engine.

    python benchmarks/rl_floors.py [--rules R] [--players N] [--seconds S]
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from mattis.rl import encoding, pettingzoo_env, speed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0)
    a = ap.parse_args()
    rules, n, secs = a.rules, a.players, a.seconds
    spec = f"python_mattis(rules={rules},players={n})"
    rows = [speed._timed("raw engine", "", secs, speed._raw(rules, n)),
            speed._timed("pettingzoo", "", secs, speed._pettingzoo(rules, n))]
    fixed = np.zeros(encoding.obs_size(n), np.float32)
    env_cls: Any = pettingzoo_env.raw_env
    real_observe = env_cls.observe

    def observe_free(self: Any, agent: str) -> dict[str, Any]:
        obs = self._referee.observation(self._seat[agent])
        return {"observation": fixed, "action_mask": self.space.mask(() if self._ended else obs.legal)}

    env_cls.observe = observe_free
    try:
        rows.append(speed._timed("pettingzoo, tensor free", "", secs, speed._pettingzoo(rules, n)))
    finally:
        env_cls.observe = real_observe
    rows += [speed._timed("openspiel, no tensor", "", secs, speed._openspiel(spec)),
             speed._timed("openspiel + obs tensor", "", secs, speed._openspiel(spec, "obs")),
             speed._timed("gymnasium", "", secs, speed._gymnasium(rules, n))]
    enc_cls: Any = encoding.Encoder
    real_encode = enc_cls.encode
    enc_cls.encode = lambda self, obs, out=None: fixed
    try:
        rows.append(speed._timed("gymnasium, tensor free", "", secs, speed._gymnasium(rules, n)))
    finally:
        enc_cls.encode = real_encode
    raw = rows[0]["decisions_per_s"]
    print(f"{rules} {n}p, {secs:g} CPU s a row ({speed.build_label()} core)")
    for r in rows:
        rate = r["decisions_per_s"]
        print(f"{r['name']:26} {rate:10,.0f}/s {1e6 / rate:7.2f} µs/decision {rate / raw:7.3f}x raw")


if __name__ == "__main__":
    main()
