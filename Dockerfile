# syntax=docker/dockerfile:1
# Subtext: one image for API instances (MODE=api) and job workers (MODE=worker).

# 1. Compile TypeScript to JavaScript (the runtime needs neither tsx nor typescript).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY db ./db
COPY src ./src
RUN npm run build

# 2. Production dependencies only.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. Runtime: Debian's ffmpeg for frames and audio, pocketsphinx for offline speech-to-text, the compiled service, a
#    non-root user.
FROM node:24-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg pocketsphinx pocketsphinx-en-us ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536 \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./
COPY --chown=node:node package.json ./
# The MCP Registry checks that an image it lists carries its server name (server.json `name`).
LABEL io.modelcontextprotocol.server.name="io.github.subtext/subtext"
USER node
EXPOSE 3000
# Liveness of whatever this container runs: the API port, or METRICS_PORT for a worker (which serves only that).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "src/healthcheck.js"]
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=1024", "--expose-gc", "src/main.js"]
