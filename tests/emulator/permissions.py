"""Discord permission bits and the base/channel permission computation."""

from __future__ import annotations

from .models import ChannelRecord, GuildRecord, MemberRecord


class Perm:
    """Discord permission bits."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38

    ALL = (1 << 51) - 1


DEFAULT_EVERYONE = (
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CHANGE_NICKNAME
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)
"""Roughly what ``@everyone`` gets in a new Discord guild."""

DEFAULT_BOT = DEFAULT_EVERYONE | Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS
"""The bot's managed role permissions unless ``add_guild(bot_permissions=...)`` says otherwise."""


def base_permissions(guild: GuildRecord, member: MemberRecord) -> int:
    """Guild-level permissions of a member: owner and administrators get everything."""
    if member.user.id == guild.owner_id:
        return Perm.ALL
    perms = guild.everyone.permissions
    for role_id in member.roles:
        role = guild.roles.get(role_id)
        if role is not None:
            perms |= role.permissions
    if perms & Perm.ADMINISTRATOR:
        return Perm.ALL
    return perms


def channel_permissions(
    guild: GuildRecord, member: MemberRecord, channel: ChannelRecord | None
) -> int:
    """Permissions of a member in a channel, applying overwrites (threads use their parent's)."""
    perms = base_permissions(guild, member)
    if perms == Perm.ALL or channel is None:
        return perms
    overwrites = {o.id: o for o in channel.overwrites}
    everyone = overwrites.get(guild.id)
    if everyone is not None:
        perms = (perms & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in member.roles:
        overwrite = overwrites.get(role_id)
        if overwrite is not None and overwrite.type == 0:
            allow |= overwrite.allow
            deny |= overwrite.deny
    perms = (perms & ~deny) | allow
    own = overwrites.get(member.user.id)
    if own is not None and own.type == 1:
        perms = (perms & ~own.deny) | own.allow
    if not perms & Perm.VIEW_CHANNEL:
        return 0
    return perms
