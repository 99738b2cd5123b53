"""Tables: lobby, seats, the per-table lock and action routing. No Discord here."""

from bot.tables.errors import TableError
from bot.tables.rules import LogEntry
from bot.tables.service import Presenter, TableService
from bot.tables.table import SeatKind, Table

__all__ = ["LogEntry", "Presenter", "SeatKind", "Table", "TableError", "TableService"]
