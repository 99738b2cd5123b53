"""Tysiacha (Thousand): the Russian three-hand game of bids, prikup, marriages and the barrel."""
