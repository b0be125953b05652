# hintgate gateway image: Streamable HTTP on port 8080, run as the unprivileged "node" user.
# Build: docker build -t hintgate .
# Run:   docker run -p 127.0.0.1:8080:8080 -v "$PWD/hintgate.yaml:/config/hintgate.yaml:ro" \
#          -e HINTGATE_TOKEN=... hintgate
# The configuration is mounted read-only: point audit.path and approvals.path at /data
# (see deploy/hintgate.yaml). /healthz answers while the process serves, /readyz once
# every upstream is connected (see docs/deploy.md).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# The build needs the dev dependencies (TypeScript); the image keeps only what runs.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY schema ./schema
COPY src ./src
# npm run build also copies the web console's assets into dist. The prune keeps the optional
# OpenTelemetry packages, which the gateway loads when OTEL_* variables turn telemetry on.
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/schema ./schema
COPY README.md ./
COPY docs ./docs
RUN mkdir -p /config /data && chown node:node /data
USER node
WORKDIR /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/app/dist/cli/main.js"]
CMD ["gateway", "--config", "/config/hintgate.yaml", "--http", "--host", "0.0.0.0", "--port", "8080"]
