"""``python -m bot``: start the bot, or explain how to get a token and offer the demo."""

from __future__ import annotations

import logging
import sys

import discord
import pydantic
import yarl

from bot.config import Settings

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

Meanwhile, `make demo` plays a whole game of four computer players through the real bot \
against a local Discord emulator, printing the table log and saving the images it posted."""


def settings_problem(error: pydantic.ValidationError) -> str:
    """What is wrong with the settings, naming each setting but never its value (pydantic's
    own message shows the values, and a model-wide error shows them all, the token too)."""
    problems = []
    for problem in error.errors(include_url=False, include_input=False, include_context=False):
        name = "_".join(str(part) for part in problem["loc"]).upper()
        text = problem["msg"].removeprefix("Value error, ")
        problems.append(f"{name}: {text}" if name else text)
    return "; ".join(problems)


def main() -> int:
    try:
        settings = Settings()
    except pydantic.ValidationError as exc:
        print(f"Bad settings (environment or .env): {settings_problem(exc)}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.discord_token is None or not settings.discord_token.get_secret_value():
        print(NO_TOKEN)
        if sys.stdin.isatty():
            answer = input("\nRun the local demo now? [y/N] ").strip().lower()
            if answer in ("y", "yes", "o", "oui"):
                from tools.demo import main as demo

                demo()
        return 0
    from bot.app import StartRefused, create_bot

    discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
    bot = create_bot(settings)
    try:
        bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    except StartRefused as exc:
        print(f"Not started: {exc}", file=sys.stderr)
        return 3
    return bot.exit_code


if __name__ == "__main__":
    sys.exit(main())
