"""A local Discord (REST API v10 + gateway v10) for testing a real discord.py bot.

See ``tests/emulator/README.md``. The main entry points:

- :class:`DiscordEmulator`: the server, the world it emulates and the user-side actions;
- :func:`run_bot` / :func:`point_discord_at`: run an unmodified discord.py client against it;
- :class:`InteractionHandle`: await the bot's answer to a slash command, click, select or modal.
"""

from .client import InteractionHandle, UserActions
from .components import Button, ButtonStyle, ComponentType, Select, SelectOption
from .display import DisplayBreach, ImageDisplay
from .errors import DiscordError, NoResponseError, UserActionError
from .limits import Limits
from .models import (
    AttachmentRecord,
    ChannelRecord,
    ChannelType,
    CommandRecord,
    GatewayEvent,
    GuildRecord,
    Intents,
    InteractionRecord,
    InteractionType,
    MemberRecord,
    MessageFlags,
    MessageRecord,
    MessageType,
    Overwrite,
    RequestRecord,
    ResponseType,
    RoleRecord,
    UserRecord,
    Violation,
)
from .permissions import DEFAULT_BOT, DEFAULT_EVERYONE, Perm
from .ratelimits import BucketRule, RateLimitHit, RateLimits, RestCall
from .runner import point_discord_at, run_bot
from .server import DiscordEmulator

__all__ = [
    "DEFAULT_BOT",
    "DEFAULT_EVERYONE",
    "AttachmentRecord",
    "BucketRule",
    "Button",
    "ButtonStyle",
    "ChannelRecord",
    "ChannelType",
    "CommandRecord",
    "ComponentType",
    "DiscordEmulator",
    "DiscordError",
    "DisplayBreach",
    "GatewayEvent",
    "GuildRecord",
    "ImageDisplay",
    "Intents",
    "InteractionHandle",
    "InteractionRecord",
    "InteractionType",
    "Limits",
    "MemberRecord",
    "MessageFlags",
    "MessageRecord",
    "MessageType",
    "NoResponseError",
    "Overwrite",
    "Perm",
    "RateLimitHit",
    "RateLimits",
    "RequestRecord",
    "ResponseType",
    "RestCall",
    "RoleRecord",
    "Select",
    "SelectOption",
    "UserActionError",
    "UserActions",
    "UserRecord",
    "Violation",
    "point_discord_at",
    "run_bot",
]
