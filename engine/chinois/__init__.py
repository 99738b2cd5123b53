"""Chinois: the French whist of 28 rounds, 1 to 13 cards and back, bidding exact tricks."""
