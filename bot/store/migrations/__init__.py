"""Numbered SQL migrations of the SQLite backend (``0001_initial.sql``, …).

This directory is a package only so that ``importlib.resources`` and setuptools'
package-data (``*.sql``) find the files; :mod:`bot.store.migrate` applies them.
"""
