"""The speed race: random playouts of our engine (raw, PettingZoo, OpenSpiel)
beside OpenSpiel's C++ crazy_eights and hearts, in one process.

    python benchmarks/rl_speed_race.py [seconds per row, default 3]
"""

from __future__ import annotations

import sys

from mattis.rl.speed import main_race

if __name__ == "__main__":
    sys.exit(main_race(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0))
