"""Discord-style API errors, and the exceptions the test-facing API raises."""

from __future__ import annotations

from typing import Any


class DiscordError(Exception):
    """An error answered to the bot as Discord would: ``{"message", "code", "errors"?}``.

    ``violation`` names the Discord rule the request broke (for example
    ``"late_response"``); such errors are also appended to
    ``DiscordEmulator.violations``. Plain lookups of unknown ids leave it None.
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        violation: str | None = None,
        interaction_id: int | None = None,
    ) -> None:
        super().__init__(f"{status} ({code}) {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = violation
        self.interaction_id = interaction_id

    def body(self) -> dict[str, Any]:
        """The JSON body Discord sends with this error."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def unauthorized() -> DiscordError:
    """401 for a missing or wrong bot token."""
    return DiscordError(401, 0, "401: Unauthorized")


def not_found_route() -> DiscordError:
    """404 for a route the emulator (or Discord) does not have."""
    return DiscordError(404, 0, "404: Not Found")


def unknown(kind: str) -> DiscordError:
    """404 ``Unknown <kind>`` with Discord's code for that kind."""
    codes = {
        "Application": 10002,
        "Channel": 10003,
        "Guild": 10004,
        "Member": 10007,
        "Message": 10008,
        "Role": 10011,
        "User": 10013,
        "Webhook": 10015,
        "Interaction": 10062,
        "application command": 10063,
    }
    return DiscordError(404, codes[kind], f"Unknown {kind}")


class UserActionError(Exception):
    """A test asked a user to do something the Discord client would not let them do.

    For example clicking a button on someone else's ephemeral message, a
    disabled button, a select value that is not offered, or a command the
    member lacks permissions for.
    """


class NoResponseError(AssertionError):
    """The bot did not give the awaited response in time."""
