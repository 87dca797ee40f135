# syntax=docker/dockerfile:1
# The image of the hosted service: one image for its three processes, the command names which
# (README, "Deployment"):
#   docker run IMAGE front --host 0.0.0.0 …
#   docker run IMAGE instance --installation acme --host 0.0.0.0 …
#   docker run IMAGE worker …
# The sources run as they are, Node 22 stripping their types (bin/major-vault.js): there is no build step.
FROM node:22-bookworm-slim

# git: mirrors are fetched and read through the git program; ca-certificates: HTTPS to GitHub.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates \
  && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production
# Two malloc arenas per process, not 8 per processor, and fixed mmap and trim thresholds of
# 128 KiB (bin/malloc-arenas.js says why).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app

# The runtime dependencies only: tsx (and its esbuild), which loads the sources in worker threads, are dependencies, every devDependency is
# for tests and lint. --ignore-scripts skips the two install scripts among them: the `node`
# package's, which fetches a Node 22 for hosts whose own Node is older (this one is Node 22),
# and esbuild's check (its binary comes in its platform package either way).
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

COPY tsconfig.json ./
COPY bin/ bin/
COPY src/ src/

# The data folder (--data): each process's Git mirrors; on a platform, an empty volume or the
# container's own disk (mirrors are fetched again after a restart). Owned by the unprivileged
# `node` user of the base image, which runs everything.
RUN mkdir -p /var/lib/major-vault && chown node:node /var/lib/major-vault
USER node

# The front and the instances listen on --port (8787 by default); the worker's probes and
# metrics on --ops-port.
EXPOSE 8787

# A young generation of 4 MiB a semi-space for the main thread (bin/malloc-arenas.js).
ENTRYPOINT ["node", "--max-semi-space-size=4", "bin/major-vault.js"]
CMD ["--help"]
