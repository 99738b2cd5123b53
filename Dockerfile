# The bot in a slim image: non-root, the database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE=/data/tichu.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY assets ./assets
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /app tichu \
    && mkdir -p /data && chown tichu /data

USER tichu
VOLUME ["/data"]
ENV TICHU_ASSETS_DIR=/app/assets \
    HEARTBEAT_FILE=/tmp/tichu-heartbeat
# docker stop (and docker run's Ctrl-C) stop the bot as Ctrl-C does: it closes cleanly.
STOPSIGNAL SIGINT
# Healthy while the bot keeps writing its heartbeat file (bot/health.py); its age limit
# follows WATCH_INTERVAL and DATABASE_TIMEOUT.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]
CMD ["python", "-m", "bot"]
