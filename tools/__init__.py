"""Benchmarks, training and maintenance commands: ``python -m tools.NAME``."""

from engine.blas import one_thread

one_thread()  # before NumPy is first imported: see engine/blas.py
