"""``python -m bot``: start the bot, or explain how to get a token and name the demo."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import textwrap
from collections.abc import Sequence

import aiohttp
import discord
import pydantic
import yarl

from bot.config import Settings
from bot.store import StoreError, StoreUnavailableError, open_repository
from engine import mlp
from engine.chinois import values as chinois_values
from engine.tichu.ai import model as models
from engine.tichu.ai.evaluator import ModelError
from engine.tysiacha import values as tysiacha_values

NO_TOKEN = """\
No DISCORD_TOKEN is set, so the bot cannot log in to Discord. To get one, open \
https://discord.com/developers/applications, create an application, open its Bot page \
and press "Reset Token"; put it in a file named .env at the top of this project as \
DISCORD_TOKEN=your-token (see .env.example for the other keys). No privileged intent is \
needed. To invite the bot, open OAuth2 → URL Generator, tick the scopes "bot" and \
"applications.commands", and the permissions View Channels, Send Messages, Send Messages \
in Threads, Create Public Threads, Embed Links, Attach Files and Read Message History \
(it deletes only its own "your turn" pings, which needs no Manage Messages); open the \
generated link and pick \
your server. Set DEV_GUILD_ID to your server's id while testing to see the commands at once.

Meanwhile, the local demo plays a whole game of four computer players through the real \
bot against a local Discord emulator, printing the table log and saving the images it \
posted: `make run` starts it now, and `make demo` at any time."""

IMAGE_VARIABLE = "TICHU_IMAGE"
"""Set by the Dockerfile: ``python -m bot`` runs inside the image, where neither this
project's ``.env`` nor ``make`` exists."""

NO_TOKEN_IN_IMAGE = """\
No DISCORD_TOKEN is set, so the bot cannot log in to Discord. Give it to the container: \
put DISCORD_TOKEN=your-token in an env file (see .env.example) and start it with \
`docker run --env-file .env -v tichu-data:/data tichu-bot`, or pass it alone with \
`-e DISCORD_TOKEN` from your shell's environment; with compose, in the .env file that \
deploy/compose.yaml reads (env_file). To get a token, open \
https://discord.com/developers/applications, create an application, open its Bot page \
and press "Reset Token"."""

NO_TOKEN_STATUS = 2
"""The exit status without a token inside the image: a missing setting, as for a wrong
one (outside the image, ``python -m bot`` explains and exits 0, and ``make run`` then
starts the demo)."""


CONFIGURED = """\
It is configured through environment variables, also read from a file named .env in the \
folder it starts in: .env.example lists every key, docs/operators/settings.md (and the \
generated docs/reference/settings.md) describes each."""
"""How ``python -m bot`` and ``python -m bot.worker`` are configured, for their ``--help``."""

log = logging.getLogger("bot")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""What stops the bot cleanly: Ctrl-C, and ``docker stop`` (the image's STOPSIGNAL is
SIGINT; SIGTERM, the default elsewhere, does the same)."""


def no_token_in_image() -> int | None:
    """Inside the Docker image, without a token: say how to give the container one, on
    standard error, and return the exit status; None outside the image (where the
    clone's own explanation and the demo apply)."""
    if not os.environ.get(IMAGE_VARIABLE):
        return None
    print(NO_TOKEN_IN_IMAGE, file=sys.stderr)
    return NO_TOKEN_STATUS


def settings_problem(error: pydantic.ValidationError) -> str:
    """What is wrong with the settings, naming each setting but never its value (pydantic's
    own message shows the values, and a model-wide error shows them all, the token too)."""
    problems = []
    for problem in error.errors(include_url=False, include_input=False, include_context=False):
        name = "_".join(str(part) for part in problem["loc"]).upper()
        text = problem["msg"].removeprefix("Value error, ")
        problems.append(f"{name}: {text}" if name else text)
    return "; ".join(problems)


def startup_settings(*, postgres_only: str | None = None) -> Settings | int:
    """A process's settings, with logging set at their level and the Tichu model checked;
    or the exit status (2) once one line on standard error said what is wrong: settings
    that cannot be read, a database other than PostgreSQL where ``postgres_only`` (that
    line) is given, or a model file that cannot be used. ``python -m bot`` and ``python -m
    bot.worker`` start the same way."""
    try:
        settings = Settings()
    except pydantic.ValidationError as exc:
        print(f"Bad settings (environment or .env): {settings_problem(exc)}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if postgres_only is not None and not settings.postgres:
        print(postgres_only.format(database=settings.database), file=sys.stderr)
        return 2
    problem = model_problem(settings)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    return settings


def model_problem(settings: Settings) -> str | None:
    """The one sentence for a model file that cannot be used (Tichu's evaluator, Chinois's
    and Tysiacha's values), or None: the computer players never play on without their
    model (``MODEL_DIR`` for every game, or the shipped ones)."""
    if settings.model_dir:
        mlp.use_directory(settings.model_dir)
    try:
        models.check()
        chinois_values.check()
        tysiacha_values.check()
    except ModelError as exc:
        return str(exc)
    return None


def database_shown(database: str) -> str:
    """``DATABASE`` as it may be printed: a URL's password is replaced by ``***``."""
    if "://" not in database:
        return database
    try:
        url = yarl.URL(database)
    except ValueError:
        return database.partition("://")[0] + "://…"
    return str(url.with_password("***")) if url.password else str(url)


def database_problem(database: str, error: StoreError) -> str:
    """The one sentence for a database that cannot be opened at start."""
    shown = database_shown(database)
    if isinstance(error, StoreUnavailableError):
        return (f"Cannot reach the database DATABASE={shown}: {error}. Check the host and "
                "port in DATABASE and that the server runs and accepts connections.")
    if error.code == "unsupported_backend":
        return (f"DATABASE={shown} is not a database this bot can use ({error}): give a "
                "file path for SQLite or a postgresql:// URL.")
    return (f"Cannot open the database DATABASE={shown}: {error}. Give DATABASE a path "
            "this user can create and write (in the Docker image: /data/tichu.sqlite3, "
            "on its volume), or the URL of a PostgreSQL database that this user may use.")


def discord_problem(settings: Settings, error: BaseException) -> str:
    """The one sentence for a Discord that refused the token or could not be reached."""
    if isinstance(error, discord.LoginFailure):
        return ("Discord refused DISCORD_TOKEN (401 Unauthorized): the token is wrong or "
                "was reset. Open your application's Bot page in the Discord developer "
                "portal, press \"Reset Token\" and put the new one in DISCORD_TOKEN.")
    if isinstance(error, discord.HTTPException):
        return (f"Discord refused to log the bot in ({error.status} {error.text or ''}"
                f"): try again later; if it lasts, check DISCORD_TOKEN.".replace(" )", ")"))
    reason = str(error) or type(error).__name__
    return (f"Cannot reach Discord at DISCORD_API_BASE={settings.discord_api_base} "
            f"({reason}). Check this machine's network and DNS, and leave DISCORD_API_BASE "
            "unset unless you run a local Discord.")


class _Stop(Exception):
    """The bot cannot start: the message is the one sentence to print, ``code`` the exit
    status."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


async def serve(settings: Settings, token: str) -> int:
    """Open (and migrate) the database, then log in to Discord and run until closed.

    The database comes first, so that a wrong ``DATABASE`` fails at once instead of
    after a gateway connection. What stops the start raises :class:`_Stop`."""
    from bot.app import StartRefused, create_bot

    try:
        repo = open_repository(settings.database, pool_size=settings.database_pool_size,
                               timeout=settings.database_timeout,
                               shard_lease=settings.shard_lease)
        await repo.open()
    except StoreError as exc:
        raise _Stop(database_problem(settings.database, exc), 4) from None
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()
    try:
        bot = create_bot(settings, repo=repo)
        logged_in = False
        closing: list[asyncio.Task[None]] = []  # a reference keeps the task alive

        def stop(signum: signal.Signals) -> None:
            """SIGINT (Ctrl-C, ``docker stop``) or SIGTERM: close the bot, which ends
            ``connect``; while still starting, cancel the start. A second signal
            interrupts at once."""
            log.info("stopping (%s)", signum.name)
            for each in STOP_SIGNALS:
                loop.remove_signal_handler(each)
            if logged_in:
                closing.append(loop.create_task(bot.close()))
            elif main_task is not None:
                main_task.cancel()

        for each in STOP_SIGNALS:
            loop.add_signal_handler(each, stop, each)
        async with bot:
            try:
                await bot.login(token)
            except StartRefused as exc:
                raise _Stop(f"Not started: {exc}", 3) from None
            except (discord.LoginFailure, discord.HTTPException, aiohttp.ClientError,
                    OSError, TimeoutError) as exc:
                raise _Stop(discord_problem(settings, exc), 4) from None
            logged_in = True
            await bot.connect()
        return bot.exit_code
    except asyncio.CancelledError:
        return 0  # stopped by a signal while starting
    finally:
        for each in STOP_SIGNALS:
            loop.remove_signal_handler(each)
        await repo.close()


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    """``python -m bot``'s command line: ``--help`` only (it prints the usage and exits 0,
    without a token, a database or Discord); anything else stops with status 2."""
    parser = argparse.ArgumentParser(
        prog="python -m bot", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=paragraphs(
            "Start the Tichu Discord bot: open (and migrate) the database, log in to Discord "
            "and run the tables until stopped (Ctrl-C, SIGTERM). Without a DISCORD_TOKEN it "
            "says how to get one."),
        epilog=paragraphs(
            f"It takes no options. {CONFIGURED}",
            "Exit status: 0 stopped, 2 a wrong setting, 3 not started (another process runs "
            "its shards or holds METRICS_PORT), 4 the database or Discord cannot be opened or "
            "reached (docs/operators/startup.md)."))
    return parser.parse_args(argv)


def paragraphs(*texts: str) -> str:
    """``texts`` as paragraphs of a ``--help`` (wrapped, a blank line between)."""
    return "\n\n".join(textwrap.fill(text, 79) for text in texts)


def main(argv: Sequence[str] = ()) -> int:
    """Run the bot with the command line's arguments ``argv`` (none from Python, where
    ``sys.argv`` is another program's); the process's exit status."""
    parse_arguments(argv)
    settings = startup_settings()
    if isinstance(settings, int):
        return settings
    token = settings.token
    if token is None:
        if (status := no_token_in_image()) is not None:
            return status
        # The demo (``python -m tools.demo``) is started by its own command, after this one
        # under `make run`: the product never imports the tools above it
        # (tests/test_layers.py).
        print(NO_TOKEN)
        return 0
    discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
    try:
        return asyncio.run(serve(settings, token.strip()))
    except _Stop as exc:
        print(exc, file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:  # Ctrl-C, or SIGINT from `docker stop` (STOPSIGNAL)
        return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
