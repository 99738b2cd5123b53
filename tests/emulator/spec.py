"""Discord's request-body schemas, from its OpenAPI description, checked on every body the bot sends.

``discord_api_spec.json`` (beside this file, made by ``python -m tests.emulator.make_spec`` from
the npm package ``discord-api-spec``, version pinned there) holds the JSON Schemas of the bodies
of message create/edit, interaction callbacks and webhook execute/edit, and of everything they
reference. :meth:`SpecValidator.check` validates a body with the ``jsonschema`` library and
renders what fails as Discord's ``errors`` object (``{"content": {"_errors": [{"code":
"BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}}``), which the
emulator answers with ``400 Invalid Form Body`` (50035) and records as a violation.

Where the spec is stricter than Discord, :data:`QUIRKS` relaxes it, narrowly and with the reason.
Formats (``uri``, ``date-time``) are not checked (``jsonschema`` leaves them alone by default).
In a union the error comes from the member meant for the value (the component its ``type``
names, the non-null member of a nullable field); when none is, it names the accepted types.
"""

from __future__ import annotations

import copy
import functools
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from .limits import FormErrors

SPEC_FILE = Path(__file__).with_name("discord_api_spec.json")

MESSAGE_CREATE = "POST /channels/{channel_id}/messages"
MESSAGE_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
INTERACTION_CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
WEBHOOK_EXECUTE = "POST /webhooks/{webhook_id}/{webhook_token}"
WEBHOOK_EDIT = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"

SNOWFLAKE_PATTERN = "^(0|[1-9][0-9]*)$"


@dataclass(frozen=True)
class Quirk:
    """A place where the emulator accepts more than the spec says, and why Discord does too."""

    schema: str
    change: str
    why: str


QUIRKS = [
    Quirk(
        "SnowflakeType",
        "a non-negative integer is accepted as well as the spec's decimal string",
        "Discord reads a snowflake from a JSON number too, and documents new attachments as "
        '`{"id": 0}`, the index of `files[0]`: discord.py sends attachment ids as integers',
    ),
]


def _apply_quirks(defs: dict[str, Any]) -> None:
    defs["SnowflakeType"] = {"anyOf": [defs["SnowflakeType"], {"type": "integer", "minimum": 0}]}


def _choices(schema: dict[str, Any], defs: dict[str, Any]) -> list[Any] | None:
    """The values the ``type`` field of an object schema takes (after ``$ref``), or None."""
    while "$ref" in schema:
        schema = defs[str(schema["$ref"]).rsplit("/", 1)[-1]]
    if schema.get("type") != "object":
        return None
    prop = (schema.get("properties") or {}).get("type")
    if not isinstance(prop, dict):
        return None
    if "const" in prop:
        return [prop["const"]]
    return list(prop["enum"]) if isinstance(prop.get("enum"), list) else None


def _nullable(node: dict[str, Any]) -> dict[str, Any] | None:
    """``anyOf: [X, {"type": "null"}]`` as ``X`` with ``null`` added to its ``type``, when X is
    a plain typed schema (its keywords then apply to its own type only): the OpenAPI form
    (``"type": ["string", "null"], "maxLength": 2000``) that zod spelled as a union."""
    members = node.get("anyOf")
    if not isinstance(members, list) or len(members) != 2 or len(node) != 1:
        return None
    if {"type": "null"} not in members:
        return None
    other = members[0] if members[1] == {"type": "null"} else members[1]
    kinds = other.get("type")
    if not isinstance(kinds, str) or kinds == "null" or {"$ref", "const", "enum"} & set(other):
        return None
    return {**other, "type": [kinds, "null"]}


def _compile(node: Any, defs: dict[str, Any]) -> Any:
    """The schema as the emulator validates it: nullable unions back in OpenAPI form, and
    each union of object schemas told apart by their ``type`` field (the components) as one
    ``x-discriminated`` keyword, which validates only the member the value's ``type`` names:
    the same bodies pass, several times faster, and the errors are that member's, as
    Discord reports them."""
    if isinstance(node, list):
        return [_compile(v, defs) for v in node]
    if not isinstance(node, dict):
        return node
    node = {k: _compile(v, defs) for k, v in node.items()}
    merged = _nullable(node)
    if merged is not None:
        return merged
    members = node.get("anyOf")
    if not isinstance(members, list) or len(members) < 2 or len(node) != 1:
        return node
    choices = [_choices(m, defs) for m in members]
    flat = [c for cs in choices if cs is not None for c in cs]
    if any(cs is None for cs in choices) or len(flat) != len(set(flat)):
        return node
    return {"x-discriminated": [[cs, member] for cs, member in zip(choices, members, strict=True)]}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: ``1 == 1.0`` but ``True != 1`` and ``"1" != 1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and bool(a == b)


_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "array": "an array",
    "object": "an object",
    "null": "null",
}


def _must_be(kinds: list[str]) -> str:
    """``Must be a string or null.``"""
    return "Must be " + " or ".join(_TYPE_WORDS.get(str(k), str(k)) for k in kinds) + "."


class SpecValidator:
    """The vendored request-body schemas, with :data:`QUIRKS` applied, and their validators."""

    def __init__(self, path: Path = SPEC_FILE) -> None:
        doc = json.loads(path.read_text())
        self.source: dict[str, str] = doc["source"]
        self.routes: dict[str, list[str]] = doc["routes"]
        self.spec_defs: dict[str, Any] = doc["$defs"]
        """The schemas as the spec gives them (no quirk applied)."""
        self.defs = copy.deepcopy(self.spec_defs)
        _apply_quirks(self.defs)
        self.defs = {k: _compile(v, self.defs) for k, v in self.defs.items()}
        self._valid: set[tuple[int, str]] = set()
        """Members of discriminated unions and values already found valid (a bot sends the
        same buttons again and again): not validated twice."""
        kind: Any = validators.extend(  # type: ignore[no-untyped-call]
            Draft202012Validator, {"x-discriminated": self._discriminated}
        )
        self._validators = {
            name: kind({"$defs": self.defs, "$ref": f"#/$defs/{name}"})
            for names in self.routes.values()
            for name in names
        }

    def schema(self, name: str, *, quirks: bool = False) -> dict[str, Any]:
        """One schema by name (``MessageCreateRequest``): the spec's own, or as the emulator uses it."""
        return dict((self.defs if quirks else self.spec_defs)[name])

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        """``node`` with its ``$ref`` followed (to the spec's own schema)."""
        while "$ref" in node:
            node = self.spec_defs[str(node["$ref"]).rsplit("/", 1)[-1]]
        return node

    def check(self, route: str, body: Any, prefix: tuple[str | int, ...] = ()) -> FormErrors:
        """Validate the JSON body of ``route`` (a key of :attr:`routes`); the errors, if any.

        A route with several body schemas (an interaction callback: one per response type)
        takes the ones whose ``type`` fits the body's; the body is valid if one of them
        accepts it, else the errors are those of the first.
        """
        errors = FormErrors()
        names = self.routes[route]
        if len(names) > 1 and isinstance(body, dict) and "type" in body:
            fitting = [n for n in names if self._type_fits(self.defs[n], body["type"])]
            if not fitting:
                choices = sorted({c for n in names for c in self._type_choices(self.defs[n])})
                errors.add((*prefix, "type"), "BASE_TYPE_CHOICES",
                           f"Value must be one of {set(choices)}.")
                return errors
            names = fitting
        failures: list[list[ValidationError]] = []
        for name in names:
            found = list(self._validators[name].iter_errors(body))
            if not found:
                return errors
            failures.append(found)
        for error in failures[0]:
            for leaf in self._leaves(error):
                self._render(errors, leaf, prefix)
        return errors

    def _discriminated(
        self, validator: Any, pairs: list[list[Any]], instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        """The ``x-discriminated`` keyword (see :func:`_compile`)."""
        if not isinstance(instance, dict):
            yield ValidationError("not an object", validator="type", validator_value="object")
            return
        if "type" not in instance:
            yield ValidationError("no type", validator="required", validator_value=["type"])
            return
        for choices, member in pairs:
            if any(_equal(c, instance["type"]) for c in choices):
                key = (id(member), json.dumps(instance, sort_keys=True))
                if key in self._valid:
                    return
                found = list(validator.descend(instance, member))
                if not found:
                    if len(self._valid) > 20_000:
                        self._valid.clear()
                    self._valid.add(key)
                yield from found
                return
        yield ValidationError(
            "unknown type",
            validator="enum",
            validator_value=[c for choices, _ in pairs for c in choices],
            path=["type"],
            instance=instance["type"],
            schema={"x-discriminator": True},
        )

    # -- union branches -------------------------------------------------------------------
    def _type_choices(self, schema: dict[str, Any]) -> list[Any]:
        prop = (schema.get("properties") or {}).get("type")
        if not isinstance(prop, dict):
            return []
        prop = self.resolve(prop)
        if "const" in prop:
            return [prop["const"]]
        return list(prop.get("enum") or [])

    def _type_fits(self, schema: dict[str, Any], value: Any) -> bool:
        choices = self._type_choices(schema)
        return not choices or any(_equal(c, value) for c in choices)

    @staticmethod
    def _misfit(sub: ValidationError, parent: ValidationError) -> bool:
        """Whether ``sub`` says its branch is not meant for the value at all: the value's
        JSON type is not the branch's, or its ``type`` field names another component."""
        depth, path = len(parent.absolute_path), list(sub.absolute_path)
        if len(path) == depth and sub.validator == "type":
            return True
        return (
            len(path) == depth + 1
            and path[-1] == "type"
            and sub.validator in ("const", "enum")
        )

    def _leaves(self, error: ValidationError) -> Iterator[ValidationError]:
        """The errors to report for ``error``: in a union, those of the branch meant for the
        value; ``error`` itself when no branch (or several) is."""
        if error.validator not in ("anyOf", "oneOf") or not error.context:
            yield error
            return
        branches: dict[Any, list[ValidationError]] = defaultdict(list)
        for sub in error.context:
            branches[sub.relative_schema_path[0]].append(sub)
        meant = [subs for subs in branches.values()
                 if not any(self._misfit(s, error) for s in subs)]
        if len(meant) == 1:
            for sub in meant[0]:
                yield from self._leaves(sub)
            return
        yield error

    # -- Discord's error objects ------------------------------------------------------------
    def _render(self, errors: FormErrors, leaf: ValidationError, prefix: tuple[str | int, ...]) -> None:
        path = (*prefix, *leaf.absolute_path)
        kind: Any = leaf.validator
        value: Any = leaf.validator_value
        schema: Any = leaf.schema if isinstance(leaf.schema, dict) else {}
        if kind in ("maxLength", "minLength", "maxItems", "minItems"):
            low = schema.get("minLength", schema.get("minItems", 0))
            high = schema.get("maxLength", schema.get("maxItems"))
            if low and high is not None:
                errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
            elif kind.startswith("max"):
                errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
            else:
                errors.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")
        elif kind == "required":
            instance = leaf.instance if isinstance(leaf.instance, dict) else {}
            for name in value:
                if name not in instance:
                    errors.add((*path, name), "BASE_TYPE_REQUIRED", "This field is required")
        elif kind == "type":
            errors.add(path, "BASE_TYPE_BAD_TYPE", _must_be(value if isinstance(value, list)
                                                            else [value]))
        elif kind == "enum" and schema.get("x-discriminator"):
            errors.add(path, "UNION_TYPE_CHOICES",
                       f'Value of field "type" must be one of {tuple(value)}.')
        elif kind in ("const", "enum"):
            choices = [value] if kind == "const" else list(value)
            errors.add(path, "BASE_TYPE_CHOICES", f"Value must be one of {set(choices)}.")
        elif kind == "minimum":
            errors.add(path, "NUMBER_TYPE_MIN", f"Value should be greater than or equal to {value}.")
        elif kind == "maximum":
            errors.add(path, "NUMBER_TYPE_MAX", f"Value should be less than or equal to {value}.")
        elif kind == "pattern" and value == SNOWFLAKE_PATTERN:
            errors.add(path, "NUMBER_TYPE_COERCE", f'Value "{leaf.instance}" is not snowflake.')
        elif kind == "pattern":
            errors.add(path, "STRING_TYPE_REGEX", "String value did not match validation regex.")
        elif kind in ("anyOf", "oneOf"):
            self._render_union(errors, leaf, path)
        else:
            errors.add(path, "INVALID_FORM_BODY", leaf.message)

    def _render_union(
        self, errors: FormErrors, leaf: ValidationError, path: tuple[str | int, ...]
    ) -> None:
        subs = list(leaf.context or [])
        if subs and all(self._misfit(s, leaf) for s in subs):
            components: list[Any] = [
                s.validator_value for s in subs if s.validator in ("const", "enum")
            ]
            if components:
                choices: list[Any] = []
                for c in components:
                    choices.extend(c if isinstance(c, list) else [c])
                errors.add((*path, "type"), "UNION_TYPE_CHOICES",
                           f'Value of field "type" must be one of {tuple(sorted(set(choices)))}.')
                return
            wanted: list[str] = []
            for s in subs:
                kinds: Any = s.validator_value
                for t in kinds if isinstance(kinds, list) else [kinds]:
                    if t not in wanted:
                        wanted.append(t)
            errors.add(path, "BASE_TYPE_BAD_TYPE", _must_be(wanted))
            return
        errors.add(path, "UNION_TYPE_CHOICES", "Value matches none of the accepted forms.")


@functools.lru_cache(maxsize=1)
def validator() -> SpecValidator:
    """The shared :class:`SpecValidator` of the vendored file (schemas are read-only)."""
    return SpecValidator()
