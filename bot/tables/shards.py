"""Which tables are this process's: the shards it owns, and which of them it may drive now.

With ``shard_count`` (and ``shard_ids``, default all of them) the process owns only the
tables of guilds on its shards: it restores and drives those alone, and refuses to load
or open any other (another process drives them). A shard whose lock is lost is
*suspended* until the lock is taken again (:class:`bot.tables.watch.Watch` takes it again,
or gives the shard up): its tables are not driven and refuse clicks.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.tables.table import Table


def shard_of(guild_id: int, shard_count: int) -> int:
    """The gateway shard of a guild (Discord's rule)."""
    return (guild_id >> 22) % shard_count


class Shards:
    """The shards this process owns, and those of them whose lock it has lost."""

    def __init__(self, shard_count: int | None = None,
                 shard_ids: Collection[int] | None = None) -> None:
        if shard_ids is not None and shard_count is None:
            raise ValueError("shard_ids needs shard_count")
        if shard_count is not None and shard_count < 1:
            raise ValueError(f"shard_count must be at least 1, got {shard_count}")
        self.shard_count = shard_count
        self.shard_ids: frozenset[int] | None = (
            None if shard_ids is None else frozenset(shard_ids))
        self.suspended: set[int] = set()
        """Shards whose lock was lost: their tables are not driven and refuse clicks."""

    def owns(self, guild_id: int) -> bool:
        """Whether the tables of this guild are this process's (its shard is ours)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def shard(self, guild_id: int) -> int:
        """The shard lock a guild's tables are under (0 when the bot is not sharded)."""
        return shard_of(guild_id, self.shard_count or 1)

    def held(self, table: Table) -> bool:
        """Whether this process may drive the table now (its shard's lock is not lost)."""
        return not self.suspended or self.shard(table.record.guild_id) not in self.suspended
