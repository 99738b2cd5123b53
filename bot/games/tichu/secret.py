"""The deployment's board secret (issue 51): what the daily boards, new events' boards
and the computers' play on them are dealt from, so that nobody can compute a board before
playing it.

The secret is ``BOARD_SECRET`` when the operator sets it, else the one kept in the store
(:meth:`~bot.store.models.Repository.board_secret`): 32 random bytes of :mod:`secrets`,
in hex, made at the deployment's first start and never replaced by the bot. Its UTF-8
bytes are the HMAC-SHA256 key of :func:`engine.duplicate.boards.keyed_seed`, so the
same text gives the same boards wherever it is set. It is never logged, shown nor
exported.
"""

from __future__ import annotations

import logging
import re
import secrets

from pydantic import SecretStr

from bot.store.models import CorruptRowError, EventRecord, Repository, StoreError
from bot.tables import TableError
from engine.duplicate.boards import keyed_seed

log = logging.getLogger(__name__)

SECRET_BYTES = 32
"""The random board secret the bot makes at its first start: 32 bytes, in hex."""
SECRET_LENGTH = 32
"""The fewest characters a board secret has (``BOARD_SECRET``, or the stored one)."""
KEYED_SEED = re.compile(r"[0-9a-f]{64}")
"""The seed of a day or an event dealt from a board secret (HMAC-SHA256, in hex). A day
dealt before deployments had one has its ISO date as its seed, an event 16 hex digits:
their boards and computers stay as they were."""


def decision_key(event: EventRecord) -> str:
    """The key the computers decide with on an event's boards, people's tables and field
    alike: derived from the event's seed, so nobody without the board secret can foresee
    their play; "" for an event dealt before deployments had a secret (its computers
    play on as they did)."""
    if not KEYED_SEED.fullmatch(event.seed):
        return ""
    return keyed_seed(event.seed.encode(), "decide")


class BoardSecret:
    """The key the boards are dealt from, read once per process and kept."""

    def __init__(self, setting: SecretStr | None = None) -> None:
        self._setting = setting
        """``BOARD_SECRET``: deals in place of the stored secret when set."""
        self._key: bytes | None = None
        self._said: set[str] = set()
        """The problems already said in the log (each once per process)."""

    async def open(self, repo: Repository) -> None:
        """At start: the key, the store's secret made and stored now if it has none (the
        deployment's first start). Never raises: a store that does not answer, or a
        stored secret that cannot be used, is said in the log, and new boards are
        refused until it is mended."""
        try:
            await self.key(repo)
        except TableError:
            pass
        except StoreError as exc:
            log.warning("board secret: not read at start (%s); read when first needed", exc)

    async def key(self, repo: Repository) -> bytes:
        """``BOARD_SECRET`` if set, else the stored secret, as bytes. The store's is made
        only when none is stored, and never replaced: one that cannot be read, or is
        shorter than :data:`SECRET_LENGTH`, refuses every new board (``board_secret``,
        a :class:`TableError`) and says in the log how to mend it. ``BOARD_SECRET``
        set, the stored one is kept as it is (and made if missing), and deals again once
        the setting is unset. Raises :class:`StoreError` if the store does not answer."""
        if self._key is not None:
            return self._key
        stored: str | None
        try:
            stored = await repo.board_secret()
            if stored is None:
                stored = await repo.make_board_secret(secrets.token_hex(SECRET_BYTES))
                if stored is not None:
                    self._say("made", logging.INFO, "board secret: none was stored; a new "
                              "random one is made and stored (the deployment's first start)")
        except CorruptRowError:
            stored = None
        usable = stored is not None and len(stored) >= SECRET_LENGTH
        if self._setting is not None:
            if not usable:
                self._say("setting-over-bad", logging.WARNING, "board secret: the stored one "
                          "cannot be used (see the board_secret table); BOARD_SECRET deals")
            elif stored != self._setting.get_secret_value():
                self._say("setting", logging.INFO, "board secret: BOARD_SECRET deals the "
                          "days and events not dealt yet, in place of the stored one (kept)")
            self._key = self._setting.get_secret_value().encode()
            return self._key
        if stored is None or not usable:
            self._say("bad", logging.ERROR, "board secret: the stored one cannot be used "
                      f"(its row holds no text of {SECRET_LENGTH} characters or more); no "
                      "daily board nor event is dealt until BOARD_SECRET is set, or the "
                      "board_secret row is mended or deleted (the bot never replaces it)")
            raise TableError("board_secret")
        self._key = stored.encode()
        return self._key

    def _say(self, problem: str, level: int, text: str) -> None:
        if problem not in self._said:
            self._said.add(problem)
            log.log(level, text)
