"""The shard settings: SHARD_COUNT, SHARD_IDS (``0,1`` or JSON) and SHARD_LOCK_WAIT, read
from the environment and checked; a wrong setting stops ``python -m bot`` with one line
that names it and shows no value (the token least of all)."""

from __future__ import annotations

from pathlib import Path

import pydantic
import pytest

from bot import __main__ as bot_main
from bot.config import Settings


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    for key in ("SHARD_COUNT", "SHARD_IDS", "SHARD_LOCK_WAIT"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return Settings(_env_file=None)  # type: ignore[call-arg]


@pytest.mark.parametrize(("count", "given", "ids", "owned"), [
    ("2", "0,1", [0, 1], [0, 1]),
    ("2", "1", [1], [1]),
    ("4", " 3 , 1 ", [1, 3], [1, 3]),
    ("4", "[3, 1]", [1, 3], [1, 3]),
    ("4", "2 0", [0, 2], [0, 2]),
    ("3", "", None, [0, 1, 2]),  # empty: unset, every shard here
])
def test_shard_ids_from_the_environment(monkeypatch: pytest.MonkeyPatch, count: str, given: str,
                                        ids: list[int] | None, owned: list[int]) -> None:
    config = settings(monkeypatch, SHARD_COUNT=count, SHARD_IDS=given)
    assert config.sharded and config.shard_count == int(count)
    assert config.shard_ids == ids and config.owned_shards == owned
    assert config.all_shards is (owned == list(range(int(count))))


def test_unsharded_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    config = settings(monkeypatch)
    assert not config.sharded and config.shard_count is None and config.shard_ids is None
    assert config.owned_shards == [0] and config.all_shards
    assert config.shard_lock_wait == 300
    assert settings(monkeypatch, SHARD_LOCK_WAIT="0").shard_lock_wait == 0


@pytest.mark.parametrize(("env", "says"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, r"SHARD_IDS \[2\] not in 0..1"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, r"SHARD_IDS \[-1\] not in 0..1"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "repeats a shard"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "[]"}, "SHARD_IDS is empty"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "must be shard numbers like 0,1"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "[0,"}, "not a JSON list"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": '["a"]'}, "shard_ids"),
    ({"SHARD_COUNT": "0"}, "shard_count"),
    ({"SHARD_COUNT": "two"}, "shard_count"),
    ({"SHARD_LOCK_WAIT": "-1"}, "shard_lock_wait"),
])
def test_bad_shard_settings_are_refused(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                                        says: str) -> None:
    with pytest.raises(pydantic.ValidationError, match=says):
        settings(monkeypatch, **env)


TOKEN = "MTE5ODc2NTQzMjEwOTg3NjU0.GhIjKl.q7Wx_Zt9RvLm2NpQs4UyBc6DeFgHiJkLmNoPqR"
"""A secret shaped like a bot token."""


@pytest.mark.parametrize(("env", "names"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "repeats a shard"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT: "),
    ({"AI_DELAY": "-1"}, "AI_DELAY: "),
    ({"DATABASE_TIMEOUT": "0"}, "DATABASE_TIMEOUT: "),
])
def test_a_settings_error_is_one_line_without_any_value(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        env: dict[str, str], names: str) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    for key in ("SHARD_COUNT", "SHARD_IDS", "SHARD_LOCK_WAIT", "AI_DELAY", "DATABASE_TIMEOUT"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert bot_main.main() == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("Bad settings")
    assert names in err
    shown = out + err
    assert not any(TOKEN[i:i + 6] in shown for i in range(len(TOKEN) - 5)), err
