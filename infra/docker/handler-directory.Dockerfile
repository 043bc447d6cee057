# syntax=docker/dockerfile:1
# Handler-directory service image. Build from the repository root:
#   docker build -f infra/docker/handler-directory.Dockerfile -t dogshop/handler-directory .
# Run (a MongoDB replica set given by MONGODB_URI):
#   docker run --env-file handler-directory.env -p 3001:3001 dogshop/handler-directory
# Operator commands run in the same image, e.g.
#   docker run --rm -it --env-file handler-directory.env dogshop/handler-directory \
#     node dist/cli/index.js admin:create <username>
#
# The build is the `bundle` package script (infra/docker/bundle.mjs): turbo build, then
# `pnpm deploy --prod` into /bundle. The same script produces the folder
# infra/test/bundle.test.ts starts and checks outside Docker.

# Node.js 24 LTS on Debian bookworm slim, pinned by digest: the multi-arch index of node:24-slim
# (= node:24-bookworm-slim) with Node 24.19.0, as docker-library/repo-info records it. The same
# digest in both Dockerfiles (infra/test/compose.test.ts checks it). No update bot is configured:
# refresh deliberately (`docker buildx imagetools inspect node:24-slim`) in both files at once; a
# pipeline may pass --build-arg NODE_IMAGE=node:24-slim@sha256:<digest>.
ARG NODE_IMAGE=node:24-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df
ARG PNPM_VERSION=10.34.8

FROM ${NODE_IMAGE} AS build
ARG PNPM_VERSION
ENV CI=true \
    TURBO_TELEMETRY_DISABLED=1
# corepack verifies registry signatures, which fails behind some registries; plain npm does not.
RUN npm install --global --no-fund --no-audit pnpm@${PNPM_VERSION}
WORKDIR /repo
# Dependencies first: this layer is reused until the lockfile or the workspace settings change.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm --filter @dogshop/handler-directory run bundle --out /bundle

FROM ${NODE_IMAGE} AS runtime
# HOST=0.0.0.0: in a container the server must listen on every interface to be reachable through a
# published port or the compose network, whatever the service's own default is.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3001 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root and read-only for the service user: the process cannot change its own code.
COPY --from=build /bundle ./
# DATA_DIR is only written in the embedded-database mode (MONGODB_URI unset, development only);
# production sets MONGODB_URI and JWT_SECRET, so nothing is written there.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3001
# /ready: MongoDB answers (slim images have no curl; Node's fetch does it).
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3001)+'/ready',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# node itself is the process that receives SIGTERM (no npm/pnpm or shell in between): it stops
# accepting, finishes in-flight requests, closes the connection and exits 0.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
