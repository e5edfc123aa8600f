# schoolbot in a container: `schoolbot serve`, tokens from the environment, the database on a volume.
#   docker build -t schoolbot .
#   docker run -d --name schoolbot -v schoolbot-data:/data -e SCHOOLBOT_TELEGRAM_TOKEN=... schoolbot
# More in docs/deploy.md.

# ---- build: the project's wheel and its dependencies' wheels
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY knowledge ./knowledge
COPY adapters ./adapters
COPY config ./config
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

# ---- run: only the installed packages, as an unprivileged user
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 \
    SCHOOLBOT_DATABASE_PATH=/data/schoolbot.db
# (COPY, not a BuildKit bind mount: `docker build` works with the classic builder too)
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels schoolbot \
 && rm -rf /wheels \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin schoolbot \
 && mkdir /data && chown schoolbot:schoolbot /data
USER schoolbot
# The database, its matcher cache (.schoolbot-cache/) and the instance lock live here;
# a settings file mounted as /data/schoolbot.toml is read too.
WORKDIR /data
VOLUME ["/data"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["schoolbot"]
CMD ["serve"]
