"""Numbered SQL migrations of the PostgreSQL backend, one per SQLite migration with
the same number and the same meaning (``bot/store/migrations/NNNN_*.sql``).

Each file is run whole in one transaction by :mod:`bot.store.postgres`, which
records the numbers applied in ``schema_migrations``.
"""
