"""``make bench``: every benchmark of the project, figures printed."""

from __future__ import annotations

from tools import bench_bot, bench_engine, bench_render, bench_shards, bench_store, bench_table


def main() -> None:
    for title, module in (("Engine", bench_engine), ("Images", bench_render),
                          ("Store: SQLite and PostgreSQL", bench_store),
                          ("A table of people: menus, panels, REST", bench_table),
                          ("Bot through the local Discord", bench_bot),
                          ("Tables over two bot processes on PostgreSQL: 100 to 1,000",
                           bench_shards)):
        print(f"== {title}", flush=True)
        module.main()


if __name__ == "__main__":
    main()
