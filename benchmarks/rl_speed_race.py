"""The speed race: random playouts of our engine (raw, OpenSpiel with and without
tensors, PettingZoo, Gymnasium, the batched env) beside OpenSpiel's C++ crazy_eights
and hearts (with and without their tensors), in one process.

    python benchmarks/rl_speed_race.py [--rules R] [--players N] [--seconds S]
"""

from __future__ import annotations

import sys

from mattis.rl.speed import main

if __name__ == "__main__":
    sys.exit(main())
