"""The bot's processes multiply with one BLAS thread (bot/__init__.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.bot.processes import ROOT

PROBE = ("import bot, numpy, json; from threadpoolctl import threadpool_info; "
         "print(json.dumps([p['num_threads'] for p in threadpool_info()]))")


def threads(**env: str) -> list[int]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120, check=True)
    return list(json.loads(done.stdout))


def test_the_bot_multiplies_on_one_thread() -> None:
    found = threads()
    assert found and set(found) == {1}


def test_an_operators_own_setting_wins() -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: a BLAS never uses more than one thread here")
    assert max(threads(OPENBLAS_NUM_THREADS="2")) == 2
