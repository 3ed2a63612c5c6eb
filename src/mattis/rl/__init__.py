"""Research interfaces (the optional extra ``mattis[rl]``).

* :mod:`mattis.rl.mattis_v0`: a PettingZoo AEC environment (``mattis_v0.env()``);
* :mod:`mattis.rl.openspiel_game`: the OpenSpiel game ``python_mattis``;
* :mod:`mattis.rl.gym_env`: a Gymnasium single-agent environment against opponents;
* :mod:`mattis.rl.vector_env`: the batched environment (N games per call, NumPy arrays);
* :mod:`mattis.rl.sb3`: that environment as a Stable-Baselines3 ``VecEnv`` (sb3 imported
  only when it is asked for);
* :mod:`mattis.rl.opponents`: opponents as bot names, policy callables, frozen
  snapshots of a learner, and pools of them for self-play;
* :mod:`mattis.rl.encoding`: the fixed action space and the observation tensor (an
  incremental :class:`~mattis.rl.encoding.Encoder`);
* :mod:`mattis.rl.speed`: a speed race against OpenSpiel's C++ card games.

Submodules are imported on demand, so ``import mattis.rl`` needs none of the extras.
"""
