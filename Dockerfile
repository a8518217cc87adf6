# syntax=docker/dockerfile:1
# toolgate container image: one image for both services (`toolgate gateway`, `toolgate payments`).
# Build:  docker build -t toolgate:0.1.0 .
# Run:    docker run --rm -p 8080:8080 -e DATABASE_URL=… -e REDIS_URL=… toolgate:0.1.0 gateway --config /etc/toolgate/gateway.yaml
#         docker run --rm -p 8081:8081 -e HEALTHCHECK_URL=http://127.0.0.1:8081/healthz toolgate:0.1.0 payments --config …
# Checked by test/deploy/container-image.test.ts (what it exercises without a Docker engine: see
# docs/operations.md, "Container image and Kubernetes"). The base images are pinned by version; pin them by
# digest (node:22.21.1-bookworm-slim@sha256:…) in your registry mirror.

# --- build: every dependency (TypeScript), then `npm run build` into dist/ ---------------------------------
FROM node:22.21.1-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the root package's `prepare` would build before the sources are here, and the native
# SQLite binding is not needed to compile.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY bin ./bin
COPY src ./src
RUN npm run build

# --- deps: production dependencies only, native binding compiled where the compilers are ------------------
FROM node:22.21.1-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=dev: no TypeScript, test or bench packages in the image. --ignore-scripts skips `prepare` (a build,
# which needs the dev dependencies); better-sqlite3's own install step is then run on its own.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 \
 && npm cache clean --force

# --- runtime: slim Node, the compiled code, the production node_modules, a non-root user -------------------
FROM node:22.21.1-bookworm-slim AS runtime
LABEL org.opencontainers.image.title="toolgate" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production \
    TOOLGATE_DATA_DIR=/var/lib/toolgate \
    TOOLGATE_GATEWAY_HOST=0.0.0.0 \
    TOOLGATE_PAYMENTS_HOST=0.0.0.0 \
    HEALTHCHECK_URL=http://127.0.0.1:8080/healthz
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY bin ./bin
COPY --from=build /app/dist/src ./dist/src
# Files the code reads at run time from the package root (src/shared/package-root.ts): the payment
# service's OpenAPI documents (also the gateway's catalogue of the shipped backends) and the portal assets.
COPY src/payments/openapi ./src/payments/openapi
COPY src/gateway/portal/assets ./src/gateway/portal/assets
# dataDir: SQLite files when no DATABASE_URL is set, generated keys. On Kubernetes an emptyDir is mounted here.
RUN mkdir -p /var/lib/toolgate && chown 1000:1000 /var/lib/toolgate
# The base image's `node` user, by number so Kubernetes can verify runAsNonRoot.
USER 1000:1000
# 8080 gateway, 8081 payment service, 8082 admin plane (`toolgate admin`).
EXPOSE 8080 8081 8082
# The services drain on SIGTERM (shutdown.graceMs); Node installs the handler, so it works as PID 1.
STOPSIGNAL SIGTERM
# Liveness for `docker run` (Kubernetes ignores it and uses the pod's probes). The slim image has no curl:
# Node's fetch does it. For the payment service set HEALTHCHECK_URL=http://127.0.0.1:8081/healthz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.HEALTHCHECK_URL).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/toolgate.js"]
CMD ["gateway"]
