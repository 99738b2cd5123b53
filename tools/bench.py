"""``make bench``: every benchmark of the project, figures printed."""

from __future__ import annotations

import importlib


def main() -> None:
    for name, title in (
        ("tools.bench_engine", "Engine"),
        ("tools.bench_render", "Images"),
        ("tools.bench_bot", "Bot through the local Discord"),
    ):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        print(f"== {title}")
        module.main()


if __name__ == "__main__":
    main()
