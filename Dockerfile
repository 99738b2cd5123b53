# The bot in a slim image, built from requirements.lock (docs/deploy.md).
#
# Stage 1, builder: the wheels of the bot's runtime dependencies, exactly as the lock pins
# them (pip checks every file against the lock's hashes), and the bot's own wheel.
# Stage 2, runtime: python:3.11-slim, no compiler and no source tree: the wheels installed
# from the builder (checked against the lock's hashes once more), a non-root user, the
# database on a volume.
#
# Podman and buildah: build with `--format docker`, or the HEALTHCHECK is dropped (the OCI
# image format has no health check).

FROM python:3.11-slim AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

WORKDIR /src
COPY requirements.lock pyproject.toml README.md ./
COPY tools/__init__.py tools/lock.py ./tools/
# The runtime part of the lock (python -m tools.lock runtime), and the locked setuptools
# that builds the bot's wheel: nothing unpinned, nothing without its hash.
RUN python -m tools.lock runtime > /wheels.txt \
    && python -m tools.lock select setuptools > /build.txt \
    && pip install --require-hashes --no-deps -r /build.txt \
    && pip wheel --require-hashes --no-deps --wheel-dir /wheels -r /wheels.txt \
    && cp /wheels.txt /wheels/runtime.lock
COPY engine ./engine
COPY bot ./bot
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /wheels .
# Changes nothing the image keeps: buildah 1.28 (Debian 12's podman) mounts a stage as it
# was before its last instruction, which would hide the bot's wheel from the mount below.
WORKDIR /wheels


FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TICHU_IMAGE=1 \
    DATABASE=/data/tichu.sqlite3

# The wheels come in through a mount, so that none of them stays in a layer of the image;
# pip installs nothing but them (no index), the dependencies against the lock's hashes.
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    pip install --no-index --find-links /wheels --require-hashes --no-deps \
        -r /wheels/runtime.lock \
    && pip install --no-index --no-deps /wheels/tichu_table-*.whl \
    && pip check \
    && useradd --system --uid 10001 --home-dir /app --no-create-home tichu \
    && mkdir -p /app /data && chown tichu /data

WORKDIR /app
COPY assets ./assets

USER tichu
VOLUME ["/data"]
ENV TICHU_ASSETS_DIR=/app/assets \
    HEARTBEAT_FILE=/tmp/tichu-heartbeat
# docker stop (and docker run's Ctrl-C) stop the bot as Ctrl-C does: it closes cleanly,
# within seconds even while Discord is out of reach.
STOPSIGNAL SIGINT
# Healthy while the bot keeps writing its heartbeat file (bot/health.py): its age limit
# follows WATCH_INTERVAL and DATABASE_TIMEOUT; unhealthy too while the database does not
# answer, or the Discord gateway has been lost for longer than GATEWAY_DOWN_LIMIT.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]
CMD ["python", "-m", "bot"]
