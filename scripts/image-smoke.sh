#!/usr/bin/env bash
# Smoke test of the image scripts/build-image.sh writes, on a machine where no container can start:
# the image's root file system is unpacked (umoci) and its own entrypoint, environment, working
# directory and user are run with chroot, against PostgreSQL and the upstream simulator outside it.
# It checks that `migrate` applies the migrations and exits 0, that the image's CLI creates an
# integration, that `serve` answers GET /api/health 200 and one catalog lookup 200, and that on
# SIGTERM it drains and exits 0 within SMOKE_STOP_SECONDS. Each step prints its time.
#
#   scripts/image-smoke.sh IMAGE.tar        (npm run image:smoke -- IMAGE.tar)
#
# Needs root (chroot, mounts), umoci (apt-get install umoci), this checkout's node_modules (the
# simulator runs from it) and a PostgreSQL that SMOKE_POSTGRES_URL names (default: the local
# server of tests/README.md); it makes its own database there and drops it at the end.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -eq 1 ] || { echo "usage: scripts/image-smoke.sh IMAGE.tar" >&2; exit 64; }
[ "$(id -u)" = 0 ] || { echo "image-smoke: run as root (chroot and mounts)" >&2; exit 1; }
command -v umoci >/dev/null || { echo "image-smoke: umoci is missing: apt-get install umoci" >&2; exit 1; }

export PATH="$PWD/node_modules/.bin:$PATH"
ARCHIVE=$(realpath "$1")
ADMIN_URL=${SMOKE_POSTGRES_URL:-postgres://postgres@127.0.0.1:55432/postgres}
STOP_SECONDS=${SMOKE_STOP_SECONDS:-10}
DATABASE="gateway_image_smoke_$$"
DATABASE_URL="${ADMIN_URL%/*}/$DATABASE"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gateway-smoke.XXXXXX")
ROOTFS="$WORK/bundle/rootfs"
SIMULATOR_PID=
APP_PID=
MOUNTS=()

sql() { node --input-type=module -e "import postgres from 'postgres'; const sql = postgres(process.argv[1], { onnotice: () => {} }); try { await sql.unsafe(process.argv[2]); } finally { await sql.end(); }" "$ADMIN_URL" "$1"; }
cleanup() {
  local status=$?
  if [ $status -ne 0 ] && [ -f "$WORK/app.log" ]; then echo "--- the app's output ---"; tail -n 60 "$WORK/app.log"; fi
  # The app under tini first: tini killed outright would leave it running.
  [ -z "$APP_PID" ] || { pkill -KILL -P "$APP_PID" 2>/dev/null; kill -KILL "$APP_PID" 2>/dev/null; } || true
  [ -z "$SIMULATOR_PID" ] || kill "$SIMULATOR_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTS[$i]}" 2>/dev/null || true; done
  sql "DROP DATABASE IF EXISTS $DATABASE WITH (FORCE)" 2>/dev/null || true
  rmdir "$WORK" 2>/dev/null || true
  exit $status
}
trap cleanup EXIT
# In memory: writing and deleting the unpacked image's 30,000-odd files on disk took longer than the test.
mount -t tmpfs -o size=3g,mode=0755 gateway-smoke "$WORK" && MOUNTS+=("$WORK")

STARTED=$SECONDS
STEP_STARTED=$SECONDS
step() {
  [ -z "${STEP_NAME:-}" ] || printf '[smoke] %-58s %4ss\n' "$STEP_NAME" "$((SECONDS - STEP_STARTED))"
  STEP_NAME=$1
  STEP_STARTED=$SECONDS
}
fail() {
  echo "[smoke] FAILED: $*" >&2
  exit 1
}
free_port() { node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
# A value of the image's configuration (what a container engine reads to start it).
image_config() { node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(eval(process.argv[2]))' "$WORK/bundle/config.json" "$1"; }

step "unpack the image's root file system (umoci)"
mkdir "$WORK/layout"
tar -xf "$ARCHIVE" -C "$WORK/layout"
REF=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).manifests[0].annotations["org.opencontainers.image.ref.name"]' "$WORK/layout/index.json")
# umoci's tags cannot hold the name's colon: tag the same manifest "smoke" in this copy of the layout.
node -e 'const fs = require("fs"); const f = process.argv[1]; const i = JSON.parse(fs.readFileSync(f, "utf8")); i.manifests.push({ ...i.manifests[0], annotations: { "org.opencontainers.image.ref.name": "smoke" } }); fs.writeFileSync(f, JSON.stringify(i));' "$WORK/layout/index.json"
# `raw unpack` and `raw runtime-config`: what `umoci unpack` does, less the checksum manifest of every
# file it writes beside the root file system (half the time here, and nothing reads it).
mkdir "$WORK/bundle"
umoci raw unpack --image "$WORK/layout:smoke" "$ROOTFS"
umoci raw runtime-config --image "$WORK/layout:smoke" --rootfs "$ROOTFS" "$WORK/bundle/config.json"
# What the image says about itself, as an engine would read it.
USER_SPEC="$(image_config 'c.process.user.uid'):$(image_config 'c.process.user.gid')"
WORKDIR=$(image_config 'c.process.cwd')
mapfile -t ENTRY < <(image_config 'c.process.args.join("\n")')
mapfile -t IMAGE_ENV < <(image_config 'c.process.env.join("\n")')
echo "[smoke] $REF: user $USER_SPEC, working directory $WORKDIR, command ${ENTRY[*]}"
[ "${USER_SPEC%%:*}" != 0 ] || fail "the image runs as root"
[ "${ENTRY[-1]}" = serve ] || fail "the image's default command is not serve: ${ENTRY[*]}"

step "copy /etc/hosts and resolv.conf, make the root read-only, mount /proc and /dev (as deploy/ runs it)"
cp /etc/hosts /etc/resolv.conf "$ROOTFS/etc/"
# As deploy/ runs the image (readOnlyRootFilesystem, read_only): the root cannot be written; the app
# writes only its journal (a volume there), /tmp and Next's cache (in memory there, tmpfs here).
mount --bind "$ROOTFS" "$ROOTFS" && MOUNTS+=("$ROOTFS")
mount -o remount,bind,ro "$ROOTFS"
touch "$ROOTFS/.written" 2>/dev/null && fail "the root is still writable"
for dir in tmp app/.next/cache var/lib/gateway/record-journal; do
  mount -t tmpfs -o "size=256m,mode=0700,uid=${USER_SPEC%%:*},gid=${USER_SPEC##*:}" "gateway-smoke-${dir//\//-}" "$ROOTFS/$dir" && MOUNTS+=("$ROOTFS/$dir")
done
mount -t proc proc "$ROOTFS/proc" && MOUNTS+=("$ROOTFS/proc")
mount --rbind /dev "$ROOTFS/dev" && MOUNTS+=("$ROOTFS/dev")

step "database and upstream simulator (outside the image)"
sql "CREATE DATABASE $DATABASE"
SIMULATOR_PORT=$(free_port)
SIMULATOR_PORT=$SIMULATOR_PORT tsx simulator/main.ts >"$WORK/simulator.log" 2>&1 &
SIMULATOR_PID=$!
for _ in $(seq 1 300); do grep -q 'listening on' "$WORK/simulator.log" && break; sleep 0.1; done
grep -q 'listening on' "$WORK/simulator.log" || fail "the simulator did not start: $(cat "$WORK/simulator.log")"
NIT=$(sed -n 's/^  individual *NIT \([0-9A-Z]*\) .*/\1/p' "$WORK/simulator.log")
[ -n "$NIT" ] || fail "no example NIT in the simulator's output"
SIMULATOR="http://127.0.0.1:$SIMULATOR_PORT"

APP_PORT=$(free_port)
key() { node -p 'require("node:crypto").randomBytes(32).toString("base64")'; }
signing_keys() { node -p 'const { privateKey } = require("node:crypto").generateKeyPairSync("ed25519"); const { x, d } = privateKey.export({ format: "jwk" }); JSON.stringify([{ kid: "smoke", jwk: { kty: "OKP", crv: "Ed25519", x, d }, firmaDesde: new Date().toISOString() }])'; }
# A production configuration (the image's NODE_ENV=production makes APP_ENV production): the
# simulator's plain http:// is accepted only on this host's loopback, as behind a TLS sidecar.
SETTINGS=(
  "HOME=/app" "PORT=$APP_PORT" "HOST=127.0.0.1" "DATABASE_URL=$DATABASE_URL" "MIGRATE_ON_START=false"
  "NEXTAUTH_SECRET=$(key)" "NEXTAUTH_URL=https://gateway.smoke.test"
  "PERSONAL_DATA_KEY=$(key)" "PERSONAL_DATA_SEARCH_KEY=$(key)" "CONSTANCIA_SIGNING_KEYS=$(signing_keys)"
  "UPSTREAM_TLS_SIDECAR=true" "RENAP_BASE_URL=$SIMULATOR/renap" "RTU_BASE_URL=$SIMULATOR/rtu" "CATALOG_BASE_URL=$SIMULATOR/catalog"
  "RENAP_API_KEY=sim-renap-key" "RTU_API_KEY=sim-rtu-key" "CATALOG_CLIENT_ID=sim-catalog-client" "CATALOG_CLIENT_SECRET=sim-catalog-secret"
  "SUPPORT_CONTACT_EMAIL=soporte@smoke.test" "ISSUER_LEGAL_NAME=Operadora de Prueba, S.A." "ISSUER_NIT=576937-K"
  "ISSUER_ADDRESS=Avenida de Prueba 1-23, zona 1, Ciudad de Guatemala" "FEL_ENABLED=false"
  # tini warns when it is not PID 1 (an engine makes it PID 1): as a subreaper it reaps all the same.
  "TINI_SUBREAPER=1"
)
# The image's entrypoint with these arguments (none: its default command), as the image's user,
# in its working directory, with its environment and the settings above.
in_image() {
  local args=("$@")
  [ $# -gt 0 ] || args=("${ENTRY[-1]}")
  exec chroot --userspec="$USER_SPEC" "$ROOTFS" /usr/bin/env -i -C "$WORKDIR" "${IMAGE_ENV[@]}" "${SETTINGS[@]}" "${ENTRY[@]:0:${#ENTRY[@]}-1}" "${args[@]}"
}

step "gateway migrate (the one-shot job)"
(in_image migrate) >"$WORK/migrate.log" 2>&1 || fail "migrate exited $?: $(cat "$WORK/migrate.log")"
grep -q 'Migrations applied (PostgreSQL)' "$WORK/migrate.log" || fail "migrate said: $(cat "$WORK/migrate.log")"

step "gateway cli integrations:create (the image's CLI)"
(in_image cli integrations:create smoke --tariff 1.50 --balance 10 --enable all --json) >"$WORK/created.json" 2>"$WORK/cli.log" ||
  fail "the CLI exited $?: $(cat "$WORK/cli.log")"
TOKEN=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).token' "$WORK/created.json")

step "gateway serve: until GET /api/health answers 200; gateway health"
(in_image) >"$WORK/app.log" 2>&1 &
APP_PID=$!
status=
for _ in $(seq 1 900); do
  kill -0 "$APP_PID" 2>/dev/null || fail "the app exited before it was healthy"
  status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$APP_PORT/api/health" || true)
  [ "$status" = 200 ] && break
  sleep 0.1
done
[ "$status" = 200 ] || fail "GET /api/health answered ${status:-nothing} after 90 s"
NODE_PID=$(pgrep -P "$APP_PID" || true)
[ -n "$NODE_PID" ] || fail "no node process under tini"
NODE_UID=$(awk '/^Uid:/ { print $2 }' "/proc/$NODE_PID/status")
[ "$NODE_UID" = "${USER_SPEC%%:*}" ] || fail "the app runs as uid $NODE_UID, not the image's user"
echo "[smoke] healthy; node (pid $NODE_PID, uid $NODE_UID) under tini (pid $APP_PID)"
(in_image health) || fail "the image's health check (gateway health) exited $? while /api/health answers 200"

step "one lookup: POST /api/catalogos/cui-nit"
LOOKUP=$(curl -s -w '\n%{http_code}' --max-time 30 -H 'content-type: application/json' \
  -H 'x-integracion-login: smoke' -H "x-integracion-token: $TOKEN" \
  -d "{\"nit\":\"$NIT\"}" "http://127.0.0.1:$APP_PORT/api/catalogos/cui-nit")
[ "$(tail -n1 <<<"$LOOKUP")" = 200 ] || fail "the lookup answered $(tail -n1 <<<"$LOOKUP"): $(head -n1 <<<"$LOOKUP" | cut -c1-300)"
[ -n "$(find "$ROOTFS/var/lib/gateway/record-journal" -mindepth 1 -print -quit)" ] || fail "nothing in the journal volume: the app did not open its journal there"

step "SIGTERM: drains and exits 0"
kill -TERM "$APP_PID"
code=
for _ in $(seq 1 $((STOP_SECONDS * 10))); do
  if ! kill -0 "$APP_PID" 2>/dev/null; then break; fi
  sleep 0.1
done
kill -0 "$APP_PID" 2>/dev/null && fail "still running ${STOP_SECONDS} s after SIGTERM"
wait "$APP_PID" && code=0 || code=$?
APP_PID=
[ "$code" = 0 ] || fail "exited $code after SIGTERM"
grep -q '"msg":"drained: no request in flight; exiting"' "$WORK/app.log" || fail "the drain did not run"

step done
echo "[smoke] passed in $((SECONDS - STARTED)) s"
