"""Slash commands, one group per game."""
