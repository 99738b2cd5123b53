"""Discord's payload limits, checked the way Discord checks them.

Each ``validate_*`` function returns a :class:`FormErrors`; a non-empty one is
answered with ``400 Invalid Form Body`` (code 50035) and a nested ``errors``
object pointing at the offending field, like real Discord.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .components import ButtonStyle, ComponentType, walk
from .errors import DiscordError
from .models import MessageFlags

LOCALES = frozenset(
    {
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    }
)

_COMMAND_NAME_RE = re.compile(r"^[-_'\w]{1,32}$")

Path = tuple[str | int, ...]


@dataclass
class Limits:
    """Discord's limits. Change a field on ``DiscordEmulator.limits`` to test edge cases."""

    content: int = 2000
    embeds: int = 10
    embed_total: int = 6000
    embed_title: int = 256
    embed_description: int = 4096
    embed_fields: int = 25
    embed_field_name: int = 256
    embed_field_value: int = 1024
    embed_footer: int = 2048
    embed_author: int = 256
    files: int = 10
    file_size: int = 10 * 1024 * 1024
    attachment_description: int = 1024
    action_rows: int = 5
    row_width: int = 5
    select_options: int = 25
    custom_id: int = 100
    button_label: int = 80
    select_placeholder: int = 150
    option_text: int = 100
    v2_components: int = 40
    v2_text: int = 4000
    gallery_items: int = 10
    section_texts: int = 3
    link_url: int = 512
    modal_title: int = 45
    modal_components: int = 5
    text_input_label: int = 45
    text_input_value: int = 4000
    autocomplete_choices: int = 25
    chat_commands: int = 100
    context_commands: int = 15
    command_options: int = 25


class FormErrors:
    """Collects field errors and renders Discord's nested ``errors`` object."""

    def __init__(self) -> None:
        self.items: list[tuple[Path, str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        """Record an error at ``path`` (e.g. ``("components", 0, "components", 1, "label")``)."""
        self.items.append((path, code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def to_dict(self) -> dict[str, Any]:
        """The nested ``errors`` object of a 50035 response."""
        root: dict[str, Any] = {}
        for path, code, message in self.items:
            node = root
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def summary(self) -> str:
        """One line per error: ``path: message``."""
        return "; ".join(f"{'.'.join(map(str, p)) or '<root>'}: {m}" for p, _, m in self.items)

    def raise_if_any(self, violation: str, interaction_id: int | None = None) -> None:
        """Raise the 400 Invalid Form Body error if any error was recorded."""
        if self.items:
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                errors=self.to_dict(),
                violation=violation,
                interaction_id=interaction_id,
            )

    # -- small checkers ---------------------------------------------------
    def max_len(self, path: Path, value: Any, limit: int) -> None:
        """Check ``len(value) <= limit`` if value is set."""
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def bad_len(
        self, path: Path, value: Any, low: int, high: int, *, required: bool = True
    ) -> None:
        """Check ``low <= len(value) <= high``; a missing value is an error if required."""
        if value is None:
            if required:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def int_range(self, path: Path, value: Any, low: int, high: int) -> None:
        """Check ``low <= value <= high`` if value is set."""
        if value is None:
            return
        if value < low:
            self.add(
                path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}."
            )
        elif value > high:
            self.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}.")


# -- messages ----------------------------------------------------------------


def is_empty_message(data: dict[str, Any], attachment_count: int) -> bool:
    """Whether a new message would have nothing to show (Discord error 50006)."""
    return not (
        data.get("content")
        or data.get("embeds")
        or data.get("components")
        or data.get("sticker_ids")
        or data.get("poll")
        or attachment_count
    )


def validate_message(
    data: dict[str, Any], limits: Limits, *, attachment_count: int = 0, prefix: Path = ()
) -> FormErrors:
    """Check a message create/edit body (content, embeds, components, files)."""
    errors = FormErrors()
    flags = int(data.get("flags") or 0)
    content = data.get("content")
    if content is not None and not isinstance(content, str):
        errors.add((*prefix, "content"), "BASE_TYPE_BAD_TYPE", "Must be a string.")
    else:
        errors.max_len((*prefix, "content"), content, limits.content)
    validate_embeds(errors, data.get("embeds"), limits, (*prefix, "embeds"))
    if attachment_count > limits.files:
        errors.add(
            (*prefix, "attachments"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {limits.files} or fewer in length.",
        )
    for i, entry in enumerate(data.get("attachments") or []):
        description = entry.get("description") if isinstance(entry, dict) else None
        if isinstance(description, str):
            errors.max_len(
                (*prefix, "attachments", i, "description"),
                description,
                limits.attachment_description,
            )
    components = data.get("components")
    if components:
        if flags & MessageFlags.IS_COMPONENTS_V2:
            if content or data.get("embeds"):
                errors.add(
                    (*prefix, "content"),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "The 'content' and 'embeds' fields cannot be used when using components v2",
                )
            _validate_v2(errors, components, limits, (*prefix, "components"))
        else:
            _validate_rows(errors, components, limits, (*prefix, "components"))
        _check_duplicate_ids(errors, components, (*prefix, "components"))
    _validate_allowed_mentions(errors, data.get("allowed_mentions"), (*prefix, "allowed_mentions"))
    return errors


def _validate_allowed_mentions(errors: FormErrors, allowed: Any, path: Path) -> None:
    """``parse: ["users"]`` with a ``users`` list (or roles with roles) is refused: the
    two ways of allowing a kind of mention exclude each other."""
    if not isinstance(allowed, dict):
        return
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            errors.add(
                (*path, kind),
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
            )
        if len(allowed.get(kind) or []) > 100:
            errors.add((*path, kind), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")


def validate_embeds(errors: FormErrors, embeds: Any, limits: Limits, path: Path) -> None:
    """Check embed count, per-field lengths and the 6000-character total."""
    if not embeds:
        return
    if len(embeds) > limits.embeds:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limits.embeds} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        p = (*path, i)
        title, description = embed.get("title"), embed.get("description")
        errors.max_len((*p, "title"), title, limits.embed_title)
        errors.max_len((*p, "description"), description, limits.embed_description)
        total += len(title or "") + len(description or "")
        fields = embed.get("fields") or []
        errors.max_len((*p, "fields"), fields, limits.embed_fields)
        for j, fld in enumerate(fields):
            errors.bad_len((*p, "fields", j, "name"), fld.get("name"), 1, limits.embed_field_name)
            errors.bad_len(
                (*p, "fields", j, "value"), fld.get("value"), 1, limits.embed_field_value
            )
            total += len(fld.get("name") or "") + len(fld.get("value") or "")
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        errors.max_len((*p, "footer", "text"), footer, limits.embed_footer)
        errors.max_len((*p, "author", "name"), author, limits.embed_author)
        total += len(footer or "") + len(author or "")
    if total > limits.embed_total:
        errors.add(
            path,
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {limits.embed_total}",
        )


def _validate_rows(
    errors: FormErrors, rows: list[dict[str, Any]], limits: Limits, path: Path
) -> None:
    if len(rows) > limits.action_rows:
        errors.add(
            path, "BASE_TYPE_MAX_LENGTH", f"Must be {limits.action_rows} or fewer in length."
        )
    for i, row in enumerate(rows):
        if row.get("type") != ComponentType.ACTION_ROW:
            errors.add(
                (*path, i, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,).',
            )
            continue
        _validate_row(errors, row, limits, (*path, i))


def _validate_row(errors: FormErrors, row: dict[str, Any], limits: Limits, path: Path) -> None:
    children = row.get("components") or []
    if not 1 <= len(children) <= limits.row_width:
        errors.add(
            (*path, "components"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {limits.row_width} in length.",
        )
    has_select = any(c.get("type") in ComponentType.SELECTS for c in children)
    if has_select and len(children) > 1:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for j, child in enumerate(children):
        _validate_interactive(errors, child, limits, (*path, "components", j))


def _validate_interactive(
    errors: FormErrors, component: dict[str, Any], limits: Limits, path: Path
) -> None:
    ctype = component.get("type")
    if ctype == ComponentType.BUTTON:
        validate_button(errors, component, limits, path)
    elif ctype in ComponentType.SELECTS:
        validate_select(errors, component, limits, path)
    else:
        errors.add(
            (*path, "type"),
            "UNION_TYPE_CHOICES",
            'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).',
        )


def validate_button(errors: FormErrors, button: dict[str, Any], limits: Limits, path: Path) -> None:
    """Check one button: style, custom_id or url, label length."""
    style = button.get("style")
    if style not in range(1, 7):
        errors.add(
            (*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}."
        )
        return
    if style == ButtonStyle.LINK:
        errors.bad_len((*path, "url"), button.get("url"), 1, limits.link_url)
        if button.get("custom_id") is not None:
            errors.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                "A link button cannot have a custom id",
            )
    elif style == ButtonStyle.PREMIUM:
        if button.get("sku_id") is None:
            errors.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        errors.bad_len((*path, "custom_id"), button.get("custom_id"), 1, limits.custom_id)
    errors.max_len((*path, "label"), button.get("label"), limits.button_label)
    if style != ButtonStyle.PREMIUM and not button.get("label") and not button.get("emoji"):
        errors.add(
            (*path, "label"),
            "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
            "A button requires a label or an emoji",
        )


def validate_select(errors: FormErrors, select: dict[str, Any], limits: Limits, path: Path) -> None:
    """Check one select menu: custom_id, placeholder, value counts and options."""
    errors.bad_len((*path, "custom_id"), select.get("custom_id"), 1, limits.custom_id)
    errors.max_len((*path, "placeholder"), select.get("placeholder"), limits.select_placeholder)
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    errors.int_range((*path, "min_values"), min_values, 0, 25)
    errors.int_range((*path, "max_values"), max_values, 1, 25)
    if min_values is not None and max_values is not None and min_values > max_values:
        errors.add(
            (*path, "min_values"),
            "SELECT_COMPONENT_MIN_GREATER_THAN_MAX",
            "min_values cannot exceed max_values",
        )
    if select.get("type") != ComponentType.STRING_SELECT:
        return
    options = select.get("options")
    errors.bad_len((*path, "options"), options, 1, limits.select_options)
    if not options:
        return
    seen: set[str] = set()
    for k, option in enumerate(options):
        op = (*path, "options", k)
        errors.bad_len((*op, "label"), option.get("label"), 1, limits.option_text)
        errors.bad_len((*op, "value"), option.get("value"), 1, limits.option_text)
        errors.max_len((*op, "description"), option.get("description"), limits.option_text)
        value = option.get("value")
        if value in seen:
            errors.add(
                (*op, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select option values must be unique",
            )
        seen.add(value)
    if max_values is not None and max_values > len(options):
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDED",
            f"max_values must be less than or equal to the number of options ({len(options)})",
        )


_V2_TOP = {1, 9, 10, 12, 13, 14, 17}
_V2_IN_CONTAINER = {1, 9, 10, 12, 13, 14}


def _validate_v2(
    errors: FormErrors, components: list[dict[str, Any]], limits: Limits, path: Path
) -> None:
    total = sum(1 for _ in walk(components))
    if total > limits.v2_components:
        errors.add(
            path, "BASE_TYPE_MAX_LENGTH", f"Must be {limits.v2_components} or fewer in length."
        )
    text = sum(
        len(c.get("content") or "")
        for c in walk(components)
        if c.get("type") == ComponentType.TEXT_DISPLAY
    )
    if text > limits.v2_text:
        errors.add(
            path,
            "MAX_TEXT_DISPLAY_SIZE_EXCEEDED",
            f"Total text display content exceeds {limits.v2_text} characters",
        )
    for i, component in enumerate(components):
        _validate_v2_component(errors, component, limits, (*path, i), _V2_TOP)


def _validate_v2_component(
    errors: FormErrors, component: dict[str, Any], limits: Limits, path: Path, allowed: set[int]
) -> None:
    ctype = component.get("type")
    if ctype not in allowed:
        errors.add(
            (*path, "type"),
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of {tuple(sorted(allowed))}.',
        )
        return
    if ctype == ComponentType.ACTION_ROW:
        _validate_row(errors, component, limits, path)
    elif ctype == ComponentType.CONTAINER:
        for i, child in enumerate(component.get("components") or []):
            _validate_v2_component(
                errors, child, limits, (*path, "components", i), _V2_IN_CONTAINER
            )
    elif ctype == ComponentType.SECTION:
        texts = component.get("components") or []
        errors.bad_len((*path, "components"), texts, 1, limits.section_texts)
        for i, child in enumerate(texts):
            _validate_v2_component(
                errors, child, limits, (*path, "components", i), {ComponentType.TEXT_DISPLAY}
            )
        accessory = component.get("accessory")
        if not isinstance(accessory, dict):
            errors.add((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
        elif accessory.get("type") == ComponentType.BUTTON:
            validate_button(errors, accessory, limits, (*path, "accessory"))
        elif accessory.get("type") != ComponentType.THUMBNAIL:
            errors.add(
                (*path, "accessory", "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (2, 11).',
            )
    elif ctype == ComponentType.TEXT_DISPLAY:
        errors.bad_len((*path, "content"), component.get("content"), 1, limits.v2_text)
    elif ctype == ComponentType.MEDIA_GALLERY:
        errors.bad_len((*path, "items"), component.get("items"), 1, limits.gallery_items)
    elif ctype == ComponentType.FILE:
        url = (component.get("file") or {}).get("url", "")
        if not str(url).startswith("attachment://"):
            errors.add(
                (*path, "file", "url"),
                "COMPONENT_FILE_URL_INVALID",
                "File url must use the attachment:// protocol",
            )


def _check_duplicate_ids(errors: FormErrors, components: list[dict[str, Any]], path: Path) -> None:
    seen: set[str] = set()
    for component in walk(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            errors.add(
                path,
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                f"Component custom id cannot be duplicated: {custom_id!r}",
            )
        seen.add(custom_id)


# -- interaction responses ------------------------------------------------------


def validate_modal(data: dict[str, Any], limits: Limits, prefix: Path = ("data",)) -> FormErrors:
    """Check a modal (callback type 9): title, custom_id, 1-5 components, text inputs."""
    errors = FormErrors()
    errors.bad_len((*prefix, "title"), data.get("title"), 1, limits.modal_title)
    errors.bad_len((*prefix, "custom_id"), data.get("custom_id"), 1, limits.custom_id)
    components = data.get("components")
    errors.bad_len((*prefix, "components"), components, 1, limits.modal_components)
    for i, component in enumerate(components or []):
        path = (*prefix, "components", i)
        ctype = component.get("type")
        if ctype == ComponentType.ACTION_ROW:
            children = component.get("components") or []
            if len(children) != 1 or children[0].get("type") != ComponentType.TEXT_INPUT:
                errors.add(
                    (*path, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 1 in length.",
                )
            for j, child in enumerate(children):
                _validate_modal_child(
                    errors, child, limits, (*path, "components", j), labelled=False
                )
        elif ctype == ComponentType.LABEL:
            errors.bad_len((*path, "label"), component.get("label"), 1, limits.text_input_label)
            errors.max_len((*path, "description"), component.get("description"), 100)
            child = component.get("component")
            if not isinstance(child, dict):
                errors.add((*path, "component"), "BASE_TYPE_REQUIRED", "This field is required")
            else:
                _validate_modal_child(errors, child, limits, (*path, "component"), labelled=True)
        elif ctype == ComponentType.TEXT_DISPLAY:
            errors.bad_len((*path, "content"), component.get("content"), 1, limits.v2_text)
        else:
            errors.add(
                (*path, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1, 10, 18).',
            )
    if components:
        _check_duplicate_ids(errors, components, (*prefix, "components"))
    return errors


def _validate_modal_child(
    errors: FormErrors, component: dict[str, Any], limits: Limits, path: Path, *, labelled: bool
) -> None:
    ctype = component.get("type")
    if ctype in ComponentType.SELECTS:
        validate_select(errors, component, limits, path)
        return
    if ctype != ComponentType.TEXT_INPUT:
        if ctype not in (ComponentType.FILE_UPLOAD, 21, 22, 23):
            errors.add((*path, "type"), "UNION_TYPE_CHOICES", "Invalid component type for a modal")
        return
    errors.bad_len((*path, "custom_id"), component.get("custom_id"), 1, limits.custom_id)
    if component.get("style") not in (1, 2):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    if labelled:
        errors.max_len((*path, "label"), component.get("label"), limits.text_input_label)
    else:
        errors.bad_len((*path, "label"), component.get("label"), 1, limits.text_input_label)
    errors.max_len((*path, "placeholder"), component.get("placeholder"), 100)
    errors.max_len((*path, "value"), component.get("value"), limits.text_input_value)
    errors.int_range((*path, "min_length"), component.get("min_length"), 0, limits.text_input_value)
    errors.int_range((*path, "max_length"), component.get("max_length"), 1, limits.text_input_value)


def validate_choices(data: dict[str, Any], limits: Limits, prefix: Path = ("data",)) -> FormErrors:
    """Check an autocomplete result (callback type 8)."""
    errors = FormErrors()
    choices = data.get("choices")
    if choices is None:
        errors.add((*prefix, "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        return errors
    errors.max_len((*prefix, "choices"), choices, limits.autocomplete_choices)
    for i, choice in enumerate(choices):
        errors.bad_len((*prefix, "choices", i, "name"), choice.get("name"), 1, 100)
        if isinstance(choice.get("value"), str):
            errors.max_len((*prefix, "choices", i, "value"), choice["value"], 100)
    return errors


# -- application commands ---------------------------------------------------------


def validate_commands(commands: list[dict[str, Any]], limits: Limits) -> FormErrors:
    """Check a bulk-overwrite body: names, descriptions, localizations, options, counts."""
    errors = FormErrors()
    seen: set[tuple[str, int]] = set()
    counts = {1: 0, 2: 0, 3: 0}
    for i, command in enumerate(commands):
        validate_command(errors, command, limits, (i,))
        ctype = int(command.get("type", 1))
        key = (str(command.get("name")), ctype)
        if key in seen:
            errors.add(
                (i, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique: {key[0]}",
            )
        seen.add(key)
        counts[ctype] = counts.get(ctype, 0) + 1
    if counts[1] > limits.chat_commands:
        errors.add(
            (),
            "APPLICATION_COMMAND_TOO_MANY",
            f"Maximum number of chat input commands reached ({limits.chat_commands})",
        )
    if counts[2] > limits.context_commands or counts[3] > limits.context_commands:
        errors.add(
            (),
            "APPLICATION_COMMAND_TOO_MANY",
            f"Maximum number of context menu commands reached ({limits.context_commands})",
        )
    return errors


def validate_command(
    errors: FormErrors, command: dict[str, Any], limits: Limits, path: Path
) -> None:
    """Check one command definition."""
    ctype = int(command.get("type", 1))
    chat = ctype == 1
    _check_name(errors, (*path, "name"), command.get("name"), chat=chat)
    _check_name_localizations(errors, path, command.get("name_localizations"), chat=chat)
    if chat:
        errors.bad_len((*path, "description"), command.get("description"), 1, 100)
        _check_description_localizations(errors, path, command.get("description_localizations"))
        _validate_options(
            errors, command.get("options") or [], limits, (*path, "options"), parent="command"
        )
    elif command.get("description"):
        errors.add(
            (*path, "description"),
            "APPLICATION_COMMAND_INVALID_DESCRIPTION",
            "Context menu commands cannot have a description",
        )


def _check_name(errors: FormErrors, path: Path, name: Any, *, chat: bool) -> None:
    if not isinstance(name, str):
        errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if chat:
        if not _COMMAND_NAME_RE.match(name):
            errors.add(
                path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}"
            )
        elif name != name.lower():
            errors.add(
                path,
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name must be lowercase: {name!r}",
            )
    else:
        errors.bad_len(path, name, 1, 32)


def _check_name_localizations(
    errors: FormErrors, path: Path, localizations: Any, *, chat: bool
) -> None:
    for locale, value in (localizations or {}).items():
        if locale not in LOCALES:
            errors.add(
                (*path, "name_localizations", locale),
                "LOCALE_INVALID",
                f"Invalid locale: {locale!r}",
            )
        _check_name(errors, (*path, "name_localizations", locale), value, chat=chat)


def _check_description_localizations(errors: FormErrors, path: Path, localizations: Any) -> None:
    for locale, value in (localizations or {}).items():
        if locale not in LOCALES:
            errors.add(
                (*path, "description_localizations", locale),
                "LOCALE_INVALID",
                f"Invalid locale: {locale!r}",
            )
        errors.bad_len((*path, "description_localizations", locale), value, 1, 100)


def _validate_options(
    errors: FormErrors, options: list[dict[str, Any]], limits: Limits, path: Path, *, parent: str
) -> None:
    errors.max_len(path, options, limits.command_options)
    kinds = [int(o.get("type", 0)) for o in options]
    nested = [k in (1, 2) for k in kinds]
    if any(nested) and not all(nested):
        errors.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other types",
        )
    seen_optional = False
    names: set[str] = set()
    for i, option in enumerate(options):
        op = (*path, i)
        kind = kinds[i]
        _check_name(errors, (*op, "name"), option.get("name"), chat=True)
        _check_name_localizations(errors, op, option.get("name_localizations"), chat=True)
        errors.bad_len((*op, "description"), option.get("description"), 1, 100)
        _check_description_localizations(errors, op, option.get("description_localizations"))
        name = str(option.get("name"))
        if name in names:
            errors.add(
                (*op, "name"),
                "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                f"Option name {name!r} is already used",
            )
        names.add(name)
        if kind == 2:
            if parent != "command":
                errors.add(
                    (*op, "type"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-command groups can only be nested in a command",
                )
            children = option.get("options") or []
            if any(int(c.get("type", 0)) != 1 for c in children):
                errors.add(
                    (*op, "options"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-command groups can only contain sub-commands",
                )
            _validate_options(errors, children, limits, (*op, "options"), parent="group")
            continue
        if kind == 1:
            if parent == "subcommand":
                errors.add(
                    (*op, "type"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-commands cannot be nested in sub-commands",
                )
            _validate_options(
                errors, option.get("options") or [], limits, (*op, "options"), parent="subcommand"
            )
            continue
        if kind not in range(3, 12):
            errors.add((*op, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, ..., 11}.")
        required = bool(option.get("required", False))
        if required and seen_optional:
            errors.add(
                (*op, "required"),
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            )
        seen_optional = seen_optional or not required
        choices = option.get("choices")
        if choices:
            if kind not in (3, 4, 10):
                errors.add(
                    (*op, "choices"),
                    "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                    "Only string, integer and number options can have choices",
                )
            if option.get("autocomplete"):
                errors.add(
                    (*op, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_AND_CHOICES",
                    "Autocomplete and choices are mutually exclusive",
                )
            errors.max_len((*op, "choices"), choices, 25)
            for k, choice in enumerate(choices):
                errors.bad_len((*op, "choices", k, "name"), choice.get("name"), 1, 100)
                for locale, value in (choice.get("name_localizations") or {}).items():
                    if locale not in LOCALES:
                        errors.add(
                            (*op, "choices", k, "name_localizations", locale),
                            "LOCALE_INVALID",
                            f"Invalid locale: {locale!r}",
                        )
                    errors.bad_len((*op, "choices", k, "name_localizations", locale), value, 1, 100)
                if kind == 3:
                    errors.bad_len((*op, "choices", k, "value"), choice.get("value"), 1, 100)
        if kind == 3:
            errors.int_range((*op, "min_length"), option.get("min_length"), 0, 6000)
            errors.int_range((*op, "max_length"), option.get("max_length"), 1, 6000)
