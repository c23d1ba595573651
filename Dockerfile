# Ledgerline: a production image. Build: docker build -t ledgerline .
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles when no prebuilt binary matches
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
# Behind a reverse proxy set TRUST_PROXY to its address or range (compose.yaml does); unset, the
# client address is the connection's and X-Forwarded-For is ignored. /metrics wants METRICS_TOKEN.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src/web/assets ./src/web/assets
COPY package.json ./
COPY bin ./bin
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# run `node bin/ledgerline.js migrate` once per deploy before starting new instances
CMD ["node", "bin/ledgerline.js", "serve"]
