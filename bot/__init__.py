"""The Discord bot: tables, panels, the store and the jobs around the pure engine."""

from engine.blas import one_thread

one_thread()  # before NumPy is first imported: see engine/blas.py
