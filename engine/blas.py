"""One BLAS thread for the evaluator's small matrices, in every process that runs it.

NumPy's BLAS multiplies the evaluator's small matrices fastest on one thread. Its default,
a thread per core in every process, made an evaluation 40 times slower on a busy machine
(2.4 ms instead of 0.06 ms for 12 rows), every process and its pool spinning threads
against each other; a review from the command line took 0.75 s of CPU instead of 0.5 s.
:func:`one_thread` must run before NumPy is first imported; the processes started after it
inherit the setting. An operator's own setting wins. The entry points call it: the bot
(``bot/__init__.py``), ``python -m engine`` and ``python -m tools....``.
"""

from __future__ import annotations

import os

VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_thread() -> None:
    """Ask the BLAS libraries for one thread, unless the environment already says."""
    for name in VARIABLES:
        os.environ.setdefault(name, "1")
