"""Whole deals played card by card, shared by the play and scoring tests.

Seat 2 deals, seat 0 opens at 100 and keeps the contract, then gives seat 1 and
seat 2 the last card of their hand. Every card is placed, so the tricks below
are exactly the ones the rules produce.
"""

from __future__ import annotations

SWEEP = ["As Ts Ks Qs Js 9s Ah Th", "Ac Tc Kc Qc Jc 9c Ad Td", "Kh Qh Jh 9h Kd Qd Jd 9d"]
"""The soloist takes all eight tricks and declares its spades marriage: 120 + 40."""

SWEEP_TRICKS = [
    ["0 play As", "1 play 9c", "2 play 9h"],
    ["0 play Qs marriage", "1 play Jc", "2 play 9d"],
    ["0 play Ks", "1 play Qc", "2 play Jh"],
    ["0 play Ts", "1 play Kc", "2 play Jd"],
    ["0 play Js", "1 play Tc", "2 play Qd"],
    ["0 play 9s", "1 play Ac", "2 play Kd"],
    ["0 play Ah", "1 play Ad", "2 play Qh"],
    ["0 play Th", "1 play Td", "2 play Kh"],
]

DEFENCE = ["Ac Tc Kc 9c Ah 9h Jd 9d", "As Ks Qs Js Th Kh Qd Td", "Ts 9s Qc Jc Qh Jh Ad Kd"]
"""The soloist fails; seat 1 declares its spades marriage and must trump later."""

DEFENCE_TRICKS = [
    ["0 play 9d", "1 play Td", "2 play Ad"],  # seat 2 takes 21
    ["2 play Ts", "0 play 9h", "1 play As"],  # seat 1 takes 21
    ["1 play Qs marriage", "2 play 9s", "0 play 9c"],  # spades trump; seat 1 takes 3
    ["1 play Kh", "2 play Jh", "0 play Ah"],  # seat 0 takes 17
    ["0 play Jd", "1 play Qd", "2 play Kd"],  # seat 2 takes 9
    ["2 play Jc", "0 play Kc", "1 play Js"],  # seat 1 must trump; takes 8
    ["1 play Th", "2 play Qh", "0 play Ac"],  # seat 1 takes 24
    ["1 play Ks", "2 play Qc", "0 play Tc"],  # seat 1 takes 17
]
DEFENCE_POINTS = (17, 73, 30)
