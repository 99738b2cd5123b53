"""The processes that run the evaluator multiply with one BLAS thread (engine/blas.py):
the bot and its workers, ``python -m engine`` and ``python -m tools....``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.blas import VARIABLES
from tests.bot.processes import ROOT

ENTRIES = {"the bot": "import bot", "python -m engine": "import engine.__main__",
           "python -m tools": "import tools"}


def threads(entry: str, **env: str) -> list[int]:
    probe = (f"{entry}; import numpy, json; from threadpoolctl import threadpool_info; "
             "print(json.dumps([p['num_threads'] for p in threadpool_info()]))")
    clean = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120, check=True)
    return list(json.loads(done.stdout))


@pytest.mark.parametrize("entry", ENTRIES.values(), ids=ENTRIES.keys())
def test_every_entry_point_multiplies_on_one_thread(entry: str) -> None:
    found = threads(entry)
    assert found and set(found) == {1}


def test_an_operators_own_setting_wins() -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: a BLAS never uses more than one thread here")
    assert max(threads(ENTRIES["the bot"], OPENBLAS_NUM_THREADS="2")) == 2
