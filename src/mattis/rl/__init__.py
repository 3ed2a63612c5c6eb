"""Research interfaces (the optional extra ``mattis[rl]``).

* :mod:`mattis.rl.mattis_v0`: a PettingZoo AEC environment (``mattis_v0.env()``);
* :mod:`mattis.rl.openspiel_game`: the OpenSpiel game ``python_mattis``;
* :mod:`mattis.rl.gym_env`: a Gymnasium single-agent environment against project bots;
* :mod:`mattis.rl.encoding`: the fixed action space and observation tensor;
* :mod:`mattis.rl.speed`: a speed race against OpenSpiel's C++ card games.

Submodules are imported on demand, so ``import mattis.rl`` needs none of the extras.
"""
