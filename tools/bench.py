"""``make bench``: every benchmark of the project, figures printed."""

from __future__ import annotations

from tools import bench_bot, bench_engine, bench_render


def main() -> None:
    for title, module in (("Engine", bench_engine), ("Images", bench_render),
                          ("Bot through the local Discord", bench_bot)):
        print(f"== {title}")
        module.main()


if __name__ == "__main__":
    main()
