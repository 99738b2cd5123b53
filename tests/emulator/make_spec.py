"""Regenerate ``discord_api_spec.json`` (beside this file) from the npm package ``discord-api-spec``.

    python -m tests.emulator.make_spec                      # the pinned versions below
    python -m tests.emulator.make_spec --version 10.0.NNN   # another release (then pin it here)

Needs ``node`` and ``npm`` (the npm registry). The package (RiskyMH's build of Discord's OpenAPI
description, published daily) ships Zod schemas of every component schema and TypeScript types
of every route, not the OpenAPI JSON itself; so the script installs it with ``zod`` in a
temporary folder, turns the Zod schemas into JSON Schema (draft 2020-12) with zod's own
``z.toJSONSchema`` (input side: a field that may be left out is not required, ``null`` is
allowed where the spec says nullable), reads the request body of each route the emulator
checks from the package's ``Paths`` type, and keeps only those bodies and the schemas they
reference. Converter artifacts it removes: each schema's ``$id``, and the ``{}`` (anything)
that zod writes for a ``z.undefined()`` member of a union (the OpenAPI union has no such
member). What the emulator then relaxes, and why, is listed in ``spec.py`` (``QUIRKS``).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PACKAGE = "discord-api-spec"
VERSION = "10.0.266135"
ZOD = "4.6.7"
SPEC_FILE = Path(__file__).with_name("discord_api_spec.json")

ROUTES = [
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
]
"""The routes whose JSON bodies the emulator validates (the spec's path templates)."""

CONVERT_JS = r"""
import * as z from "zod";
import * as spec from "discord-api-spec/zod";

const registry = z.registry();
for (const [name, schema] of Object.entries(spec)) {
  if (name.endsWith("Schema") && schema && typeof schema === "object" && "_zod" in schema) {
    registry.add(schema, { id: name.slice(0, -"Schema".length) });
  }
}
const out = z.toJSONSchema(registry, {
  io: "input",
  unrepresentable: "any",
  uri: (id) => `#/$defs/${id}`,
});
process.stdout.write(JSON.stringify(out.schemas));
"""


def request_bodies(types: str, method: str, path: str) -> list[str]:
    """The schema names of a route's ``requestBody`` in the package's TypeScript ``Paths``."""
    start = types.find(f'\n  "{path}": {{')
    if start < 0:
        raise LookupError(f"no route {path} in the package's Paths")
    end = types.find('\n  "/', start + 1)
    block = types[start : end if end > 0 else len(types)]
    opening = block.find(f"\n    {method.lower()}: {{")
    closing = block.find("\n    };", opening)
    found = re.search(r"requestBody\?:\s*([^;]*);", block[opening:closing]) if opening >= 0 else None
    if found is None or found.group(1).strip() == "undefined":
        raise LookupError(f"no request body for {method} {path}")
    names = [part.strip() for part in found.group(1).split("|") if part.strip()]
    if not names or not all(re.fullmatch(r"\w+", n) for n in names):
        raise LookupError(f"unexpected request body for {method} {path}: {found.group(1)!r}")
    return names


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[-1]
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def clean(node: Any) -> Any:
    """Drop ``$id`` and ``$schema``, and the ``{}`` members of unions (zod's ``z.undefined()``)."""
    if isinstance(node, dict):
        out = {k: clean(v) for k, v in node.items() if k not in ("$id", "$schema")}
        if isinstance(out.get("anyOf"), list):
            members = [m for m in out["anyOf"] if m != {}]
            out["anyOf"] = members
            if len(members) == 1 and len(out) == 1:
                return members[0]
        return out
    if isinstance(node, list):
        return [clean(v) for v in node]
    return node


def prune(defs: dict[str, Any], roots: list[str]) -> dict[str, Any]:
    """The schemas ``roots`` need: themselves and every schema they reference, cleaned."""
    keep: dict[str, Any] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        keep[name] = clean(defs[name])
        todo.extend(_refs(keep[name]))
    return dict(sorted(keep.items()))


def build(defs: dict[str, Any], types: str, *, version: str, zod: str) -> dict[str, Any]:
    """The vendored document: its source, the routes' body schemas, and the schemas."""
    routes = {f"{m} {p}": request_bodies(types, m, p) for m, p in ROUTES}
    roots = sorted({name for names in routes.values() for name in names})
    return {
        "source": {
            "package": f"{PACKAGE}@{version}",
            "converter": f"zod@{zod} z.toJSONSchema(io: input)",
            "regenerate": "python -m tests.emulator.make_spec",
        },
        "routes": routes,
        "$defs": prune(defs, roots),
    }


def fetch(version: str, zod: str) -> tuple[dict[str, Any], str]:
    """Install the package and zod in a temporary folder; the JSON schemas and the TS types."""
    with tempfile.TemporaryDirectory(prefix="discord-api-spec-") as tmp:
        subprocess.run(
            ["npm", "install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts",
             "--prefix", tmp, f"{PACKAGE}@{version}", f"zod@{zod}"],
            check=True, stdout=subprocess.DEVNULL,
        )
        Path(tmp, "convert.mjs").write_text(CONVERT_JS)
        converted = subprocess.run(
            ["node", "convert.mjs"], cwd=tmp, check=True, capture_output=True, text=True
        ).stdout
        types = Path(tmp, "node_modules", PACKAGE, "build", "discord-api-spec.ts").read_text()
    return json.loads(converted), types


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default=VERSION, help=f"{PACKAGE} version ({VERSION})")
    parser.add_argument("--zod", default=ZOD, help=f"zod version for the conversion ({ZOD})")
    parser.add_argument("--out", type=Path, default=SPEC_FILE)
    args = parser.parse_args(argv)
    defs, types = fetch(args.version, args.zod)
    doc = build(defs, types, version=args.version, zod=args.zod)
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print(f"{args.out}: {len(doc['$defs'])} schemas for {len(doc['routes'])} routes "
          f"from {doc['source']['package']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
