"""The Discord bot: tables, panels, the store and the jobs around the pure engine."""

import os

# NumPy's BLAS multiplies the evaluator's small matrices fastest on one thread. Its default,
# a thread per core in every process, made an evaluation 40 times slower on a busy
# machine (2.4 ms instead of 0.06 ms for 12 rows), every bot and worker process and their
# pools spinning threads against each other. Set before NumPy is first imported; the
# processes the bot starts inherit it. An operator's own setting wins.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
