"""The phrases people may say at a table (issue 53): a fixed set, no free text, so
nothing to moderate. Each is a key of the catalogue (``talk.<phrase>``), stored as its
key and shown to each reader in their own language."""

from __future__ import annotations

PHRASES = ("hello", "gl", "nice", "wp", "oops", "sorry", "wait", "thanks", "partner", "gg")
"""Every phrase, in the order the menu offers them."""
TEAM_PHRASES = frozenset({"partner"})
"""Phrases offered only at a game played by teams (thanks, partner)."""


def offered(team_size: int) -> tuple[str, ...]:
    """The phrases a game whose teams have ``team_size`` seats offers."""
    return tuple(p for p in PHRASES if team_size > 1 or p not in TEAM_PHRASES)
