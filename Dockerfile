# syntax=docker/dockerfile:1
#
# Smart Decision: one multi-stage build, one target per service.
#
#   docker build --target gateway         -t smart-decision-gateway .
#   docker build --target provider-worker -t smart-decision-provider-worker .
#   docker build --target aggregator      -t smart-decision-aggregator .
#   docker build --target webhook-worker  -t smart-decision-webhook-worker .
#   docker build --target all-in-one      -t smart-decision-all-in-one .
#
# The backend runs its TypeScript directly with tsx (no build step). It is started
# as `node --import tsx <entry>` rather than `npx tsx <entry>`: npx runs the command
# through `sh -c` and neither npm nor sh forwards SIGTERM, so the service would never
# see it and could not drain its jobs before the container is killed. With
# `node --import tsx` the service is PID 1 and receives SIGTERM itself.

# Node 24 LTS, the release in .node-version (what CI runs), pinned so a rebuild gets the same runtime. To pin the digest
# too, on a machine that reaches Docker Hub run
#   docker buildx imagetools inspect node:24.21.0-bookworm-slim --format '{{json .Manifest.Digest}}'
# and append it: node:24.21.0-bookworm-slim@sha256:<digest> (Renovate or Dependabot then keep it current).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

# Only the npm manifests (root and every workspace), so the dependency layers below
# are rebuilt only when a manifest changes: the full copy in manifests-src is cheap,
# and the layers that follow are cached on the content of what it extracts.
FROM base AS manifests-src
COPY . /src
RUN cd /src && mkdir -p /manifests \
 && cp package.json package-lock.json /manifests/ \
 && for ws in $(node -p 'require("./package.json").workspaces.join(" ")'); do \
      for f in $ws/package.json; do \
        if [ -f "$f" ]; then mkdir -p "/manifests/${f%/package.json}" && cp "$f" "/manifests/$f"; fi; \
      done; \
    done

FROM base AS manifests
COPY --from=manifests-src /manifests/ ./

# Full install (dev dependencies included): used to build the web app.
FROM manifests AS deps
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci

# Production install for the runtime images (tsx, the backend's runtime, is a dependency).
FROM manifests AS prod-deps
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev

# The React app, built with Vite into web/dist.
FROM deps AS web-build
COPY tsconfig.base.json ./
COPY libs ./libs
COPY web ./web
RUN npm run build -w web

# Common runtime: production node_modules plus the TypeScript sources, all owned by
# root and read-only for the unprivileged `node` user.
FROM base AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0
COPY --from=prod-deps /app ./
COPY package.json tsconfig.json tsconfig.base.json ./
COPY libs ./libs
COPY services ./services
USER node
STOPSIGNAL SIGTERM
# Every service answers /ready on HEALTH_PORT (the gateway on PORT), so `docker run` and plain
# Docker hosts see an unhealthy container too; Node's fetch keeps curl out of the image.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.HEALTH_PORT || process.env.PORT || 3000) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

FROM runtime AS gateway
COPY --from=web-build /app/web/dist ./web/dist
ENV PORT=3000
EXPOSE 3000
CMD ["node", "--import", "tsx", "services/gateway/src/main.ts"]

FROM runtime AS provider-worker
ENV HEALTH_PORT=9090
EXPOSE 9090
CMD ["node", "--import", "tsx", "services/provider-worker/src/main.ts"]

FROM runtime AS aggregator
ENV HEALTH_PORT=9090
EXPOSE 9090
CMD ["node", "--import", "tsx", "services/aggregator/src/main.ts"]

FROM runtime AS webhook-worker
ENV HEALTH_PORT=9090
EXPOSE 9090
CMD ["node", "--import", "tsx", "services/webhook-worker/src/main.ts"]

# Gateway, provider workers, aggregator and webhook worker in one process. Without MONGO_URL it uses
# the embedded store, journaled under DATA_DIR (mount a volume there).
FROM runtime AS all-in-one
COPY --from=web-build /app/web/dist ./web/dist
USER root
RUN mkdir -p /app/data && chown node:node /app/data
USER node
ENV PORT=3000 \
    DATA_DIR=/app/data
VOLUME ["/app/data"]
EXPOSE 3000
CMD ["node", "--import", "tsx", "services/all-in-one/src/main.ts"]
