"""The bot side of interactions: callbacks, @original, follow-ups.

This is where Discord's interaction rules live: one initial response within
the deadline (3 s by default), response types valid for the interaction
type, deferred "thinking" messages replaced by the first follow-up or an
edit of ``@original``, ephemeral visibility, and webhook token validity.
"""

from __future__ import annotations

import time
from typing import Any

from . import limits as lim
from .errors import DiscordError, unknown
from .models import (
    InteractionRecord,
    InteractionType,
    MessageFlags,
    MessageRecord,
    MessageType,
    ResponseType,
    Upload,
)
from .state import World

_ALLOWED_RESPONSES: dict[int, set[int]] = {
    InteractionType.APPLICATION_COMMAND: {4, 5, 9},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    InteractionType.AUTOCOMPLETE: {8},
    InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
}


class InteractionResponder:
    """Applies the bot's interaction responses to the world."""

    def __init__(self, world: World) -> None:
        self.world = world

    # -- helpers -----------------------------------------------------------------
    def _settle(self, record: InteractionRecord, message: MessageRecord | None) -> None:
        if record.settled_at is None:
            record.settled_at = time.monotonic()
            record.result_message_id = message.id if message is not None else None
        elif record.result_message_id is None and message is not None:
            record.result_message_id = message.id

    def _fail(
        self, record: InteractionRecord, status: int, code: int, message: str, kind: str
    ) -> DiscordError:
        return DiscordError(status, code, message, violation=kind, interaction_id=record.id)

    def _source_message(self, record: InteractionRecord) -> MessageRecord:
        message = self.world.messages.get(record.source_message_id or 0)
        if message is None or message.deleted:
            raise DiscordError(
                404, 10008, "Unknown Message", violation="unknown_message", interaction_id=record.id
            )
        return message

    # -- POST /interactions/{id}/{token}/callback ---------------------------------------
    def callback(
        self, interaction_id: str, token: str, body: dict[str, Any], uploads: list[Upload]
    ) -> dict[str, Any]:
        """Handle an initial response; return the ``with_response`` callback object."""
        world = self.world
        record = world.interaction_by_id(interaction_id)
        if record is None or record.token != token:
            raise DiscordError(404, 10062, "Unknown interaction", violation="unknown_interaction")
        now = time.monotonic()
        if record.acknowledged:
            raise self._fail(
                record,
                400,
                40060,
                "Interaction has already been acknowledged.",
                "already_acknowledged",
            )
        if world.deadline_clock() - record.clock_start > world.interaction_timeout:
            raise self._fail(record, 404, 10062, "Unknown interaction", "late_response")
        rtype = body.get("type")
        data = body.get("data") or {}
        allowed = set(_ALLOWED_RESPONSES.get(record.type, set()))
        if record.type == InteractionType.MODAL_SUBMIT and record.source_message_id is None:
            allowed -= {ResponseType.DEFERRED_UPDATE_MESSAGE, ResponseType.UPDATE_MESSAGE}
        if rtype not in allowed:
            errors = lim.FormErrors()
            errors.add(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Response type {rtype} is not valid for interaction type {record.type}",
            )
            errors.raise_if_any("invalid_response_type", record.id)
        channel = world.channels[record.channel_id]
        ephemeral = bool(int(data.get("flags") or 0) & MessageFlags.EPHEMERAL)
        owner = record.user.id if ephemeral else None
        kind = (
            MessageType.CHAT_INPUT_COMMAND
            if record.type == InteractionType.APPLICATION_COMMAND
            else MessageType.DEFAULT
        )
        message: MessageRecord | None = None
        if rtype == ResponseType.CHANNEL_MESSAGE:
            plan = world.check_message(
                data, uploads, [], creating=True, prefix=("data",), interaction_id=record.id
            )
            self._acknowledge(record, rtype, now)
            message = world.create_message(
                channel,
                world.bot,
                data,
                plan,
                msg_type=kind,
                ephemeral_user_id=owner,
                interaction=record,
            )
            record.original_message_id = message.id
            self._settle(record, message)
        elif rtype == ResponseType.DEFERRED_CHANNEL_MESSAGE:
            self._acknowledge(record, rtype, now)
            message = world.create_message(
                channel,
                world.bot,
                {"content": ""},
                [],
                msg_type=kind,
                ephemeral_user_id=owner,
                interaction=record,
                extra_flags=MessageFlags.LOADING,
            )
            record.original_message_id = message.id
        elif rtype == ResponseType.DEFERRED_UPDATE_MESSAGE:
            message = self._source_message(record)
            self._acknowledge(record, rtype, now)
            record.original_message_id = message.id
            message = None
        elif rtype == ResponseType.UPDATE_MESSAGE:
            message = self._source_message(record)
            plan = world.check_message(
                data,
                uploads,
                message.attachments,
                creating=False,
                prefix=("data",),
                interaction_id=record.id,
            )
            self._acknowledge(record, rtype, now)
            world.edit_message(message, data, plan)
            record.original_message_id = message.id
            self._settle(record, message)
        elif rtype == ResponseType.AUTOCOMPLETE_RESULT:
            lim.validate_choices(data, world.limits).raise_if_any("invalid_form_body", record.id)
            self._acknowledge(record, rtype, now)
            record.choices = list(data["choices"])
            self._settle(record, None)
        elif rtype == ResponseType.MODAL:
            lim.validate_modal(data, world.limits).raise_if_any("invalid_form_body", record.id)
            self._acknowledge(record, rtype, now)
            record.modal = data
            self._settle(record, None)
        world.notify(record.channel_id)
        info: dict[str, Any] = {
            "id": str(record.id),
            "type": record.type,
            "response_message_loading": rtype == ResponseType.DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": ephemeral,
        }
        if record.original_message_id is not None:
            info["response_message_id"] = str(record.original_message_id)
        resource: dict[str, Any] = {"type": rtype}
        if message is not None:
            resource["message"] = world.message_payload(message)
        return {"interaction": info, "resource": resource}

    def _acknowledge(self, record: InteractionRecord, rtype: int, now: float) -> None:
        record.response_type = rtype
        record.responded_at = now
        record.callbacks.append(rtype)

    # -- webhook token routes ----------------------------------------------------------------
    def record_for_token(self, application_id: str, token: str) -> InteractionRecord:
        """The interaction behind a webhook token, enforcing token validity and acknowledgement."""
        world = self.world
        record = world.interaction_by_token(token)
        if record is None or application_id != str(world.application_id):
            raise DiscordError(404, 10015, "Unknown Webhook", violation="unknown_webhook")
        if time.monotonic() - record.created_at > world.token_ttl:
            raise self._fail(record, 401, 50027, "Invalid Webhook Token", "expired_token")
        if not record.acknowledged:
            raise self._fail(record, 404, 10015, "Unknown Webhook", "not_acknowledged")
        return record

    def _target(self, record: InteractionRecord, message_id: str) -> MessageRecord:
        if message_id == "@original":
            mid = record.original_message_id
        else:
            try:
                mid = int(message_id)
            except ValueError:
                raise unknown("Message") from None
            if mid != record.original_message_id and mid not in record.followup_ids:
                mid = None
        message = self.world.messages.get(mid or 0)
        if message is None or message.deleted:
            raise DiscordError(
                404, 10008, "Unknown Message", violation="unknown_message", interaction_id=record.id
            )
        return message

    def followup(
        self, application_id: str, token: str, body: dict[str, Any], uploads: list[Upload]
    ) -> dict[str, Any]:
        """POST /webhooks/{app}/{token}: a follow-up (the first one after a deferral fills the placeholder)."""
        world = self.world
        record = self.record_for_token(application_id, token)
        original = world.messages.get(record.original_message_id or 0)
        if (
            record.response_type == ResponseType.DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            plan = world.check_message(body, uploads, [], creating=True, interaction_id=record.id)
            world.edit_message(original, body, plan, clear_flags=MessageFlags.LOADING)
            self._settle(record, original)
            return world.message_payload(original)
        plan = world.check_message(body, uploads, [], creating=True, interaction_id=record.id)
        ephemeral = bool(int(body.get("flags") or 0) & MessageFlags.EPHEMERAL)
        channel = world.channels[record.channel_id]
        message = world.create_message(
            channel,
            world.bot,
            body,
            plan,
            ephemeral_user_id=record.user.id if ephemeral else None,
            interaction=record,
        )
        record.followup_ids.append(message.id)
        self._settle(record, message)
        world.notify(record.channel_id)
        return world.message_payload(message)

    def get(self, application_id: str, token: str, message_id: str) -> dict[str, Any]:
        """GET /webhooks/{app}/{token}/messages/{id|@original}."""
        record = self.record_for_token(application_id, token)
        return self.world.message_payload(self._target(record, message_id))

    def edit(
        self,
        application_id: str,
        token: str,
        message_id: str,
        body: dict[str, Any],
        uploads: list[Upload],
    ) -> dict[str, Any]:
        """PATCH /webhooks/{app}/{token}/messages/{id|@original}; clears a deferral's loading state."""
        world = self.world
        record = self.record_for_token(application_id, token)
        message = self._target(record, message_id)
        plan = world.check_message(
            body, uploads, message.attachments, creating=False, interaction_id=record.id
        )
        world.edit_message(message, body, plan, clear_flags=MessageFlags.LOADING)
        if (
            message.id == record.original_message_id
            or record.response_type == ResponseType.DEFERRED_UPDATE_MESSAGE
        ):
            self._settle(record, message)
        world.notify(record.channel_id)
        return world.message_payload(message)

    def delete(self, application_id: str, token: str, message_id: str) -> None:
        """DELETE /webhooks/{app}/{token}/messages/{id|@original}."""
        record = self.record_for_token(application_id, token)
        self.world.delete_message(self._target(record, message_id))
