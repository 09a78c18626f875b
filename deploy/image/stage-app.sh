#!/usr/bin/env bash
# Assembles what the image runs from a checkout whose `next build` is done and whose node_modules
# holds the development dependencies (esbuild, the pinned `node` package):
#   OUT/app   the app under /app: server.mjs and the .mjs modules it imports, next.config.mjs, the
#             build (.next without its cache), the migrations, the migrate and CLI commands bundled,
#             and the production dependencies only (npm ci --omit=dev)
#   OUT/node  the pinned Node.js binary from the project's own `node` package
# Both ways of building the image run this: the Containerfile's build stage and
# scripts/build-image.sh. Usage: deploy/image/stage-app.sh CHECKOUT OUT
set -euo pipefail

SRC=$(cd "$1" && pwd)
OUT=$2
APP="$OUT/app"
# The build to take (scripts/build-image.sh may give its own, .next-image); the image has it as .next.
DIST=${NEXT_DIST_DIR:-.next}

[ -f "$SRC/$DIST/BUILD_ID" ] || { echo "stage-app: $SRC/$DIST holds no build: run npm run build first" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$APP/dist" "$APP/db" "$APP/lib/flows/passwords"

cd "$SRC"
cp package.json package-lock.json server.mjs next.config.mjs "$APP/"
# server.mjs and next.config.mjs import plain-JavaScript modules of lib/ (the rest of lib/ is in the build).
find lib -name '*.mjs' ! -name '*.test.*' -exec cp --parents {} "$APP/" \;
# Read at run time from the working directory: the migrations and the common-password list.
cp -r db/migrations "$APP/db/"
cp lib/flows/passwords/common-passwords.txt "$APP/lib/flows/passwords/"
# The build without what only the build machine uses: Next's cache (recreated empty, writable by
# the app for the pages it regenerates), its trace and the test harness's stamp.
mkdir -p "$APP/.next"
tar -C "$SRC/$DIST" --exclude=./cache --exclude=./trace --exclude=./gateway-build-stamp -cf - . | tar -C "$APP/.next" -xf -
mkdir -p "$APP/.next/cache"

# `migrate` and `cli` as single files: tsx and esbuild are development dependencies, left out.
node "$SRC/deploy/image/bundle-commands.mjs" "$APP/dist"

# Production dependencies only. No install scripts: only development packages (esbuild, node) have any.
(cd "$APP" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
# Next's compiler for musl systems never loads on Debian's glibc.
rm -rf "$APP"/node_modules/@next/swc-linux-*-musl

# The image's command (deploy/image/gateway.sh), its `serve` being package.json's start script.
mkdir -p "$APP/bin"
START=$(node -p 'require("./package.json").scripts.start')
sed "s|@START@|$START|" deploy/image/gateway.sh >"$APP/bin/gateway"
chmod 755 "$APP/bin/gateway"

PINNED=$(node -p 'require("./package.json").devDependencies.node')
NODE_BIN="$SRC/node_modules/node/bin/node"
[ "$("$NODE_BIN" --version)" = "v$PINNED" ] || { echo "stage-app: $NODE_BIN is not the pinned v$PINNED" >&2; exit 1; }
cp "$NODE_BIN" "$OUT/node"
echo "stage-app: app staged in $APP ($(du -sh "$APP" | cut -f1)), Node.js v$PINNED"
