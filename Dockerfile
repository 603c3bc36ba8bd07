# One image for every Renopath process; the command picks the service by its source's path:
#   docker run renopath:0.1.0 services/estates/src/main.ts   (the default runs the gateway)
# Three stages: the production dependencies (compiled native modules included), the build (every
# dependency, tsc), and the runtime, which takes only the first's node_modules and the second's
# JavaScript: no compiler, no TypeScript, no dev dependency, no tsx.

# Node 22 LTS, not 24: better-sqlite3 12 (the last release that supports Node 20, which CI still
# runs) aborts on Node 24 when a prepared statement is collected (docs/operations.md, "Node versions").

# --- production dependencies: compiled here, so the runtime image carries no compiler ---
FROM node:22-bookworm-slim AS deps
# better-sqlite3 builds from source when no prebuilt binary matches (or none can be fetched). node-gyp
# builds against the base image's own Node headers, not headers it would download.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
WORKDIR /app
# Manifests first: the npm ci layer is rebuilt only when a dependency changes. npm ci needs the
# manifest of every workspace (the deploy test checks this list against shared/* and services/*).
COPY package.json package-lock.json ./
COPY shared/catalog/package.json shared/catalog/
COPY shared/contracts/package.json shared/contracts/
COPY shared/energy/package.json shared/energy/
COPY shared/platform/package.json shared/platform/
COPY services/calculations/package.json services/calculations/
COPY services/estates/package.json services/estates/
COPY services/gateway/package.json services/gateway/
COPY services/identity/package.json services/identity/
COPY services/renovations/package.json services/renovations/
COPY services/reporting/package.json services/reporting/
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# --- build: every dependency (TypeScript), then the services compiled to build/ ---
FROM deps AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- runtime ---
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production RENOPATH_DATA_DIR=/data
WORKDIR /app
# The production tree (node_modules, the workspace links in it and any nested node_modules), then the
# compiled services over it, with their manifests pointing at the JavaScript, and the health probe.
COPY --from=deps /app ./
COPY --from=build /app/build ./
COPY deploy/start.mjs deploy/start.mjs
COPY deploy/probe deploy/probe
# /data/blobs exists so that a named volume mounted there (the shared `fs` blob store) starts out
# owned by the service's user, like /data itself.
RUN mkdir -p /data/blobs && chown -R node:node /data
# The code stays owned by root: the service (user node, uid 1000) can only write under /data.
# No VOLUME: only some processes keep state in /data (identity, the gateway, `fs` blobs and SQLite),
# and compose and Kubernetes mount a volume there for those.
USER node
# Every process serves /metrics and /health on this port (RENOPATH_METRICS_PORT): keep it off the
# public network. The gateway's API is on PORT (8080).
ENV RENOPATH_METRICS_PORT=9464
EXPOSE 8080 9464
# Liveness of any service (the contexts serve no other HTTP); compose and Kubernetes add their own
# readiness checks per service (the gateway's /ready, the contexts' bus probe).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=6 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.RENOPATH_METRICS_PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "deploy/start.mjs"]
CMD ["services/gateway/src/main.ts"]
