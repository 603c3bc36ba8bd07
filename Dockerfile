# One image for every Renopath process; the command picks the service:
#   docker run renopath:0.1.0 services/estates/src/main.ts   (the default runs the gateway)
# Services run from their TypeScript sources through tsx, as `npm run start:*` does.

# --- dependencies: compiled here so the runtime image carries no compiler ---
FROM node:20.19-bookworm-slim AS deps
# better-sqlite3 builds from source when no prebuilt binary matches (or none can be fetched).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
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
# Dev dependencies stay: tsx runs the sources at run time.
RUN npm ci --no-audit --no-fund \
 && npm cache clean --force

# --- runtime ---
FROM node:20.19-bookworm-slim
ENV RENOPATH_DATA_DIR=/data
WORKDIR /app
# The deps stage's tree (node_modules, workspace manifests and any nested node_modules), then the
# sources over it (.dockerignore keeps the host's node_modules out).
COPY --from=deps /app ./
COPY . .
# /data/blobs exists so that a named volume mounted there (the shared `fs` blob store) starts out
# owned by the service's user, like /data itself.
RUN mkdir -p /data/blobs && chown -R node:node /data
# The sources stay owned by root: the service (user node, uid 1000) can only write under /data.
# No VOLUME: only some processes keep state in /data (identity, the gateway, `fs` blobs and SQLite),
# and compose and Kubernetes mount a volume there for those.
USER node
EXPOSE 8080
ENTRYPOINT ["node", "--import", "tsx"]
CMD ["services/gateway/src/main.ts"]
