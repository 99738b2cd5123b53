"""``make bench``: every benchmark of the project, figures printed."""

from __future__ import annotations

from tools import bench_bot, bench_engine, bench_render, bench_store, bench_table


def main() -> None:
    for title, module in (("Engine", bench_engine), ("Images", bench_render),
                          ("Store: SQLite and PostgreSQL", bench_store),
                          ("A table of people: menus, panels, REST", bench_table),
                          ("Bot through the local Discord", bench_bot)):
        print(f"== {title}")
        module.main()


if __name__ == "__main__":
    main()
