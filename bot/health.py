"""The bot's heartbeat file, and the health check that reads it.

The running bot calls :func:`write_heartbeat` now and then (while it is
connected); ``python -m bot.health [path] [--max-age SECONDS]`` exits 0 when
the last beat is recent enough, the database answered and the Discord gateway is
connected, else 1 with one line saying why. The Dockerfile's ``HEALTHCHECK`` runs
it. The file holds the Unix time of the last beat, then a line
``database-down-since <time>`` while the database does not answer, and a line
``gateway-down-since <time>`` once the gateway has been disconnected for longer
than ``GATEWAY_DOWN_LIMIT`` (discord.py keeps its ready flag through an outage,
so the bot tracks the gateway itself); it is replaced atomically, so a reader
never sees half a write.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from bot.config import Settings

DEFAULT_PATH = "/tmp/tichu-heartbeat"
MIN_MAX_AGE = 60.0


def default_max_age() -> float:
    """How old a beat may be: three beats' worth. The bot writes it every
    ``WATCH_INTERVAL`` after its check, which waits at most twice ``DATABASE_TIMEOUT``
    for a database that does not answer (both read from the environment, with the bot's
    defaults); at least a minute."""
    fields = Settings.model_fields

    def setting(name: str) -> float:
        try:
            return float(os.environ.get(name.upper()) or fields[name].default)
        except ValueError:
            return float(fields[name].default)
    return max(MIN_MAX_AGE, 3 * (setting("watch_interval") + 2 * setting("database_timeout")))
ENV_PATH = "HEARTBEAT_FILE"


def default_path() -> Path:
    """``$HEARTBEAT_FILE``, else ``/tmp/tichu-heartbeat``."""
    return Path(os.environ.get(ENV_PATH) or DEFAULT_PATH)


DATABASE_DOWN = "database-down-since"
GATEWAY_DOWN = "gateway-down-since"


def write_heartbeat(path: str | os.PathLike[str] | None = None, *, now: float | None = None,
                    database_down_since: float | None = None,
                    gateway_down_since: float | None = None) -> None:
    """Record ``now`` (default: the current time) as the last beat, atomically, with the
    time since which the database has not answered, if it does not, and the time since
    which the Discord gateway has been lost, if the bot says it is down."""
    target = Path(path) if path is not None else default_path()
    stamp = f"{time.time() if now is None else now:.3f}\n"
    if database_down_since is not None:
        stamp += f"{DATABASE_DOWN} {database_down_since:.3f}\n"
    if gateway_down_since is not None:
        stamp += f"{GATEWAY_DOWN} {gateway_down_since:.3f}\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(stamp)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check(path: Path, max_age: float, *, now: float | None = None) -> str | None:
    """Why the heartbeat at ``path`` is not healthy, or None if it is fresh."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return f"unhealthy: no heartbeat at {path}"
    except (OSError, UnicodeDecodeError) as error:
        return f"unhealthy: cannot read {path}: {error}"
    first, _, rest = text.partition("\n")
    try:
        beat = float(first)
    except ValueError:
        return f"unhealthy: {path} holds no timestamp"
    now = time.time() if now is None else now
    age = now - beat
    if age > max_age:
        return f"unhealthy: last heartbeat {age:.0f}s ago (limit {max_age:g}s)"
    if age < -max_age:
        return f"unhealthy: heartbeat {-age:.0f}s in the future"
    for line in rest.splitlines():
        word, _, since = line.strip().partition(" ")
        try:
            down = f" for {max(now - float(since), 0):.0f}s"
        except ValueError:
            down = ""
        if word == DATABASE_DOWN:
            return f"unhealthy: the database has not answered{down} (see the bot's log)"
        if word == GATEWAY_DOWN:
            return (f"unhealthy: the Discord gateway has been disconnected{down}, past "
                    "GATEWAY_DOWN_LIMIT (see the bot's log)")
    return None


def main(argv: list[str] | None = None) -> int:
    """The command line: 0 if the heartbeat is fresh, else 1 and one line on stderr."""
    parser = argparse.ArgumentParser(prog="python -m bot.health", description=__doc__)
    parser.add_argument("path", nargs="?", type=Path, default=None,
                        help=f"heartbeat file (default: ${ENV_PATH} or {DEFAULT_PATH})")
    parser.add_argument("--max-age", type=float, default=None,
                        help="seconds a heartbeat stays fresh (default: three beats of "
                        "WATCH_INTERVAL and DATABASE_TIMEOUT, at least 60)")
    args = parser.parse_args(argv)
    path = args.path if args.path is not None else default_path()
    problem = check(path, default_max_age() if args.max_age is None else args.max_age)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    print(f"healthy: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
