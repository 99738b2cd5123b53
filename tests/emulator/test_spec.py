"""Discord's OpenAPI schemas in the emulator: the vendored file, its limits, and the bodies it refuses."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.emulator import (
    DiscordEmulator,
    InteractionRecord,
    InteractionType,
    Limits,
    make_spec,
    spec,
)
from tests.emulator.models import ChannelRecord

EmulatorFactory = Callable[..., Awaitable[DiscordEmulator]]

SPEC = spec.validator()


def spec_value(schema: str, *path: str, keyword: str) -> Any:
    """A keyword of the spec's own schema at ``path`` (property names; ``[]`` for items),
    following ``$ref`` and the non-null member of nullable unions."""
    node: Any = SPEC.schema(schema)
    for step in (*path, None):
        node = SPEC.resolve(node)
        members = [m for m in node.get("anyOf") or [] if m != {"type": "null"}]
        if len(members) == 1:
            node = SPEC.resolve(members[0])
        if step is None:
            break
        node = node["items"] if step == "[]" else node["properties"][step]
    return node[keyword]


# -- the vendored file ----------------------------------------------------------------------


def test_the_vendored_spec_is_the_pinned_package_for_the_checked_routes() -> None:
    assert SPEC.source["package"] == f"{make_spec.PACKAGE}@{make_spec.VERSION}"
    assert list(SPEC.routes) == [f"{m} {p}" for m, p in make_spec.ROUTES]
    assert {spec.MESSAGE_CREATE, spec.MESSAGE_EDIT, spec.INTERACTION_CALLBACK,
            spec.WEBHOOK_EXECUTE, spec.WEBHOOK_EDIT} == set(SPEC.routes)
    assert SPEC.routes[spec.MESSAGE_CREATE] == ["MessageCreateRequest"]
    # Regenerating from the vendored schemas changes nothing: every reference resolves.
    roots = sorted({n for names in SPEC.routes.values() for n in names})
    assert make_spec.prune(SPEC.spec_defs, roots) == SPEC.spec_defs
    for quirk in spec.QUIRKS:
        assert quirk.schema in SPEC.spec_defs and quirk.why


def test_make_spec_reads_request_bodies_and_drops_converter_artifacts() -> None:
    types = '''
  "/things/{id}": {
    get: {
      requestBody?: undefined;
    };
    post: {
      parameters: {};
      requestBody?:
        | FirstRequest
        | SecondRequest;
      responses: {};
    };
  };
  "/other": {
    post: {
      requestBody?: OtherRequest;
    };
  };
'''
    assert make_spec.request_bodies(types, "POST", "/things/{id}") == [
        "FirstRequest", "SecondRequest"]
    assert make_spec.request_bodies(types, "POST", "/other") == ["OtherRequest"]
    with pytest.raises(LookupError):
        make_spec.request_bodies(types, "GET", "/things/{id}")
    with pytest.raises(LookupError):
        make_spec.request_bodies(types, "PATCH", "/other")
    assert make_spec.clean({"$id": "#/$defs/A", "type": "object", "properties": {
        "data": {"anyOf": [{}, {"$ref": "#/$defs/B"}, {"$ref": "#/$defs/C"}]},
        "only": {"anyOf": [{}, {"$ref": "#/$defs/B"}]}}}) == {
        "type": "object", "properties": {
            "data": {"anyOf": [{"$ref": "#/$defs/B"}, {"$ref": "#/$defs/C"}]},
            "only": {"$ref": "#/$defs/B"}}}


# -- the emulator's limits are the spec's -------------------------------------------------------

BUTTON = "ButtonComponentForMessageRequest"
SELECT = "StringSelectComponentForMessageRequest"
MODAL = "ModalInteractionCallbackRequestData"
TEXT_INPUT = "TextInputComponentForModalRequest"

LIMITS_IN_SPEC: list[tuple[str, str, tuple[str, ...], str]] = [
    # (Limits field, schema, path, keyword)
    ("content", "IncomingWebhookInteractionRequest", ("content",), "maxLength"),
    ("content", "IncomingWebhookRequestPartial", ("content",), "maxLength"),
    ("content", "IncomingWebhookUpdateRequestPartial", ("content",), "maxLength"),
    ("content", "IncomingWebhookUpdateForInteractionCallbackRequestPartial", ("content",),
     "maxLength"),
    ("embeds", "MessageCreateRequest", ("embeds",), "maxItems"),
    ("embeds", "IncomingWebhookInteractionRequest", ("embeds",), "maxItems"),
    ("embed_title", "RichEmbed", ("title",), "maxLength"),
    ("embed_description", "RichEmbed", ("description",), "maxLength"),
    ("embed_fields", "RichEmbed", ("fields",), "maxItems"),
    ("embed_field_name", "RichEmbedField", ("name",), "maxLength"),
    ("embed_field_value", "RichEmbedField", ("value",), "maxLength"),
    ("embed_footer", "RichEmbedFooter", ("text",), "maxLength"),
    ("embed_author", "RichEmbedAuthor", ("name",), "maxLength"),
    ("files", "MessageCreateRequest", ("attachments",), "maxItems"),
    ("files", "IncomingWebhookRequestPartial", ("attachments",), "maxItems"),
    ("attachment_description", "MessageAttachmentRequest", ("description",), "maxLength"),
    ("row_width", "ActionRowComponentForMessageRequest", ("components",), "maxItems"),
    ("select_options", SELECT, ("options",), "maxItems"),
    ("custom_id", BUTTON, ("custom_id",), "maxLength"),
    ("custom_id", SELECT, ("custom_id",), "maxLength"),
    ("custom_id", MODAL, ("custom_id",), "maxLength"),
    ("button_label", BUTTON, ("label",), "maxLength"),
    ("link_url", BUTTON, ("url",), "maxLength"),
    ("select_placeholder", SELECT, ("placeholder",), "maxLength"),
    ("option_text", "StringSelectOptionForRequest", ("label",), "maxLength"),
    ("option_text", "StringSelectOptionForRequest", ("value",), "maxLength"),
    ("option_text", "StringSelectOptionForRequest", ("description",), "maxLength"),
    ("v2_components", "MessageCreateRequest", ("components",), "maxItems"),
    ("v2_components", "ContainerComponentForMessageRequest", ("components",), "maxItems"),
    ("v2_text", "TextDisplayComponentForMessageRequest", ("content",), "maxLength"),
    ("gallery_items", "MediaGalleryComponentForMessageRequest", ("items",), "maxItems"),
    ("section_texts", "SectionComponentForMessageRequest", ("components",), "maxItems"),
    ("modal_title", MODAL, ("title",), "maxLength"),
    ("text_input_label", TEXT_INPUT, ("label",), "maxLength"),
    ("text_input_value", TEXT_INPUT, ("value",), "maxLength"),
    ("text_input_value", TEXT_INPUT, ("max_length",), "maximum"),
    ("autocomplete_choices", "InteractionApplicationCommandAutocompleteCallbackStringData",
     ("choices",), "maxItems"),
]


@pytest.mark.parametrize(("field", "schema", "path", "keyword"), LIMITS_IN_SPEC,
                         ids=[f"{f}:{s}.{'.'.join(p)}" for f, s, p, _ in LIMITS_IN_SPEC])
def test_a_hard_coded_limit_is_the_spec_s(
    field: str, schema: str, path: tuple[str, ...], keyword: str
) -> None:
    assert getattr(Limits(), field) == spec_value(schema, *path, keyword=keyword)


def test_where_the_emulator_is_stricter_than_the_spec() -> None:
    """Limits Discord documents and enforces for bots that the spec states otherwise: the
    emulator keeps Discord's documented numbers. A new spec that changes one shows here."""
    limits = Limits()
    # Channel messages: 2,000 characters for a bot ("up to 2000 characters", Create Message);
    # the spec's 4,000 is what Nitro users may send.
    assert spec_value("MessageCreateRequest", "content", keyword="maxLength") == 4000
    assert spec_value("MessageEditRequestPartial", "content", keyword="maxLength") == 4000
    assert limits.content == 2000
    # A modal holds 1 to 5 components (Interactions docs, Modal); the spec allows 40.
    assert spec_value(MODAL, "components", keyword="maxItems") == 40
    assert limits.modal_components == 5
    # Non-v2 messages: at most 5 action rows; the spec's 40 counts components v2.
    assert limits.action_rows == 5 < spec_value("MessageCreateRequest", "components",
                                                 keyword="maxItems")


# -- bodies the spec refuses --------------------------------------------------------------------


@pytest_asyncio.fixture
async def http(emulator: DiscordEmulator) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {emulator.bot_token}"}
    async with aiohttp.ClientSession(emulator.base_url, headers=headers) as session:
        yield session


def channel_of(emu: DiscordEmulator) -> ChannelRecord:
    return emu.add_text_channel(emu.add_guild("Spec"), "tables")


async def post(http: aiohttp.ClientSession, channel: ChannelRecord, body: Any) -> tuple[int, Any]:
    async with http.post(f"/api/v10/channels/{channel.id}/messages", json=body) as resp:
        return resp.status, await resp.json()


async def test_bodies_against_the_spec_are_refused_like_discord(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    emu = emulator
    channel = channel_of(emu)
    status, answer = await post(http, channel, {"content": 5})
    assert (status, answer["code"], answer["errors"]) == (400, 50035, {"content": {"_errors": [
        {"code": "BASE_TYPE_BAD_TYPE", "message": "Must be a string or null."}]}})
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    status, answer = await post(http, channel, {"components": [
        {"type": 1, "components": [button, dict(button, custom_id="x", style=9)]},
        {"type": 99}]})
    assert status == 400
    assert answer["errors"] == {"components": {
        "0": {"components": {"1": {"style": {"_errors": [
            {"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {1, 2, 3, 4, 5, 6}."}]}}}},
        "1": {"type": {"_errors": [{"code": "UNION_TYPE_CHOICES", "message":
              'Value of field "type" must be one of (1, 17, 13, 12, 9, 14, 10).'}]}}}}
    status, answer = await post(http, channel, {"content": "hi", "embeds": [
        {"title": "t", "fields": [{"name": "a"}]}], "message_reference": {"message_id": "x1"}})
    assert answer["errors"] == {
        "embeds": {"0": {"fields": {"0": {"value": {"_errors": [
            {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}}}}},
        "message_reference": {"message_id": {"_errors": [
            {"code": "NUMBER_TYPE_COERCE", "message": 'Value "x1" is not snowflake.'}]}}}
    assert [v.kind for v in emu.violations] == ["invalid_form_body"] * 3
    assert emu.channel_messages(channel) == []


async def test_what_discord_accepts_passes(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    emu = emulator
    channel = channel_of(emu)
    first = emu.create_message(channel, emu.bot, {"content": "first"}, [])
    # nulls where the spec says nullable; a snowflake as a number (QUIRKS); v2 components
    for body in [
        {"content": "hi", "embeds": None, "components": None, "tts": False, "nonce": None,
         "allowed_mentions": {"parse": [], "replied_user": None}, "flags": None},
        {"content": "reply", "message_reference": {"message_id": first.id,
                                                   "fail_if_not_exists": False}},
        {"flags": 1 << 15, "components": [{"type": 17, "components": [
            {"type": 10, "content": "Your turn"},
            {"type": 9, "components": [{"type": 10, "content": "x"}],
             "accessory": {"type": 2, "style": 2, "label": "Go", "custom_id": "go"}}]}]},
    ]:
        status, answer = await post(http, channel, body)
        assert status == 200, answer
    emu.assert_clean()


async def test_interaction_bodies_are_checked_and_blamed_on_the_interaction(
    emulator_factory: EmulatorFactory,
) -> None:
    emu = await emulator_factory(rate_limits=False)
    channel = channel_of(emu)
    alice = emu.add_user("alice")
    emu.add_member(emu.guilds[channel.guild_id or 0], alice)
    record = InteractionRecord(
        id=emu.snowflakes.next(), token="token-1", type=InteractionType.MESSAGE_COMPONENT,
        user=alice, channel_id=channel.id, guild_id=channel.guild_id,
        data={"custom_id": "go", "component_type": 2}, payload={},
        created_at=time.monotonic(), clock_start=emu.deadline_clock())
    emu.register_interaction(record)
    async with aiohttp.ClientSession(emu.base_url) as http:
        url = f"/api/v10/interactions/{record.id}/{record.token}/callback"
        async with http.post(url, json={"type": 4, "data": {"content": "x" * 2001}}) as resp:
            assert resp.status == 400
            assert (await resp.json())["errors"] == {"data": {"content": {"_errors": [
                {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}}}
        async with http.post(url, json={"type": 3}) as resp:
            assert (await resp.json())["errors"] == {"type": {"_errors": [
                {"code": "BASE_TYPE_CHOICES",
                 "message": "Value must be one of {1, 4, 5, 6, 7, 8, 9, 12, 13}."}]}}
    assert [v.interaction_id for v in emu.violations] == [record.id, record.id]
    assert record.rejections == emu.violations and not record.acknowledged


async def test_check_spec_false_leaves_bodies_to_the_emulator_s_own_checks(
    emulator_factory: EmulatorFactory,
) -> None:
    emu = await emulator_factory(check_spec=False)
    channel = channel_of(emu)
    headers = {"Authorization": f"Bot {emu.bot_token}"}
    async with aiohttp.ClientSession(emu.base_url, headers=headers) as http:
        status, _ = await post(http, channel, {"content": "hi", "nonce": "n" * 30})
        assert status == 200  # the spec's 25 characters are not checked
        status, answer = await post(http, channel, {"content": "x" * 2001})
        assert status == 400 and "content" in answer["errors"]  # limits.py still is
