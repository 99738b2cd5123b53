"""The in-engine duel of Chinois's ways to bid or play: paired, deterministic, one line."""

from __future__ import annotations

import re

import pytest

from tools import duel_chinois


def test_a_way_against_itself_is_level_on_every_pair() -> None:
    assert duel_chinois.duel("bids", "learned", "learned", 3) == [0.0, 0.0, 0.0]


def test_the_same_pairs_whatever_the_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    one = duel_chinois.duel("play", "learned", "normal", 4)
    assert duel_chinois.duel("play", "learned", "normal", 4, jobs=2) == one
    assert duel_chinois.main(["--bids", "learned:normal", "--pairs", "4"]) == 0
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(r"bids: learned over normal: [+-]\d+\.\d\d \(95% CI [+-]\d+\.\d\d to "
                        r"[+-]\d+\.\d\d\) points a seat a deal over 4 pairs", line), line


def test_an_unknown_way_is_refused() -> None:
    with pytest.raises(SystemExit) as stopped:
        duel_chinois.main(["--bids", "learned:search"])
    assert stopped.value.code == 2
