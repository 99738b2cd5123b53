# The bot in a slim image, built from requirements.lock (docs/deploy.md).
#
# Stage 1, builder: the wheels of the bot's runtime dependencies, exactly as the lock pins
# them (pip checks every file against the lock's hashes), installed into a virtualenv with
# the bot's own wheel (built by the locked setuptools).
# Stage 2, runtime: python:3.11-slim and that virtualenv, nothing else: no compiler, no
# source tree, no wheels, no build leftovers; a non-root user, the database on a volume.
#
# Podman and buildah: build with `--format docker`, or the HEALTHCHECK is dropped (the OCI
# image format has no health check).

FROM python:3.11-slim AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

WORKDIR /src
COPY requirements.lock pyproject.toml README.md ./
COPY tools/lock.py ./tools/
# The runtime part of the lock (tools/lock.py runtime) as wheels, installed into /opt/venv
# from those wheels alone; and the locked setuptools, for the bot's wheel below: nothing
# unpinned, nothing without its hash. tools/lock.py runs as a script, not as the module
# tools.lock: the package tools imports the project, which is not copied yet (the layers
# of the dependencies stay cached until the lock changes). tests/test_dockerfile.py runs
# these steps with only the files copied before each.
RUN python tools/lock.py runtime > /runtime.lock \
    && python tools/lock.py select setuptools > /build.lock \
    && pip install --require-hashes --no-deps -r /build.lock \
    && pip wheel --require-hashes --no-deps --wheel-dir /wheels -r /runtime.lock \
    && python -m venv --without-pip /opt/venv \
    && pip --python /opt/venv/bin/python install --no-index --find-links /wheels \
        --require-hashes --no-deps -r /runtime.lock
COPY engine ./engine
COPY bot ./bot
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /dist . \
    && pip --python /opt/venv/bin/python install --no-index --no-deps /dist/*.whl \
    && pip --python /opt/venv/bin/python check


FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/venv/bin:$PATH \
    TICHU_IMAGE=1 \
    DATABASE=/data/tichu.sqlite3

RUN useradd --system --uid 10001 --home-dir /app --no-create-home tichu \
    && mkdir -p /app /data && chown tichu /data
COPY --from=builder /opt/venv /opt/venv
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
