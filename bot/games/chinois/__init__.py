"""Chinois as the bot hosts it: four seats, each for itself, 28 rounds of exact bids."""
