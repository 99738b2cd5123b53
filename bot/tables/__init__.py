"""Tables: lobby, seats, the per-table lock and action routing. No Discord here.

:class:`TableService` builds the parts, each a module named for what it answers for:
``core`` (the tables held and the one path of a change), ``shards``, ``lobby``,
``seats``, ``clicks``, ``drivers`` (computer players and turn timers), ``results`` and
``watch`` (restore, the store and the shard locks).
"""

from bot.tables.core import Presenter
from bot.tables.errors import TableError
from bot.tables.rules import LogEntry
from bot.tables.service import TableService
from bot.tables.table import SeatKind, Table

__all__ = ["LogEntry", "Presenter", "SeatKind", "Table", "TableError", "TableService"]
