#!/usr/bin/env bash
# Builds the gateway's image (the same as deploy/image/Containerfile's) on a machine where no base
# image can be pulled and no container can start: a Debian bookworm root file system made from
# Debian's packages (mmdebstrap), the app staged from this checkout (deploy/image/stage-app.sh), and
# buildah from scratch, copy, config and commit, written as an OCI archive. docs/deploy.md, "The image".
#
#   scripts/build-image.sh OUTPUT.tar [VERSION]        (npm run image:build -- OUTPUT.tar)
#
# Needs root and Debian's mmdebstrap and buildah (apt-get install mmdebstrap buildah), network
# to deb.debian.org and the npm registry, and this checkout's node_modules (npm ci). The image is
# named taxpayer-gateway:VERSION (default: package.json's version) inside the archive.
# IMAGE_FORMAT=docker writes a docker-archive instead (docker load / podman load), which keeps the
# HEALTHCHECK: the OCI format has no field for it.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 1 ] || { echo "usage: scripts/build-image.sh OUTPUT.tar [VERSION]" >&2; exit 64; }
[ "$(id -u)" = 0 ] || { echo "build-image: run as root (mmdebstrap and buildah write files owned by other users)" >&2; exit 1; }
for tool in mmdebstrap buildah; do
  command -v "$tool" >/dev/null || { echo "build-image: $tool is missing: apt-get install mmdebstrap buildah" >&2; exit 1; }
done

export PATH="$PWD/node_modules/.bin:$PATH"
OUTPUT=$(realpath -m "$1")
VERSION=${2:-$(node -p 'require("./package.json").version')}
IMAGE="taxpayer-gateway:$VERSION"
FORMAT=${IMAGE_FORMAT:-oci}
REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)
if [ "$REVISION" != unknown ] && ! git diff --quiet HEAD 2>/dev/null; then REVISION="$REVISION-dirty"; fi
# The last commit's time: the root file system's and the image's dates do not change between builds of one commit.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

# The user the app runs as, and the journal's volume: the Containerfile uses the same.
APP_UID=10001
JOURNAL_DIR=/var/lib/gateway/record-journal

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gateway-image.XXXXXX")
BUILDAH=(buildah --root "$WORK/storage" --runroot "$WORK/run" --storage-driver vfs)
cleanup() {
  "${BUILDAH[@]}" rm --all >/dev/null 2>&1 || true
  "${BUILDAH[@]}" rmi --all --force >/dev/null 2>&1 || true
  if mountpoint -q "$WORK"; then umount -l "$WORK"; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
# In memory (about 2.5 GB at most, given back at the end): this disk discards on every delete, and
# writing then deleting the staged app's 30,000-odd files twice took longer than the rest of the build.
mount -t tmpfs -o size=6g,mode=0755 gateway-image "$WORK" || echo "[image] no tmpfs: building in $WORK on disk"

STARTED=$SECONDS
STEP_STARTED=$SECONDS
step() {
  [ -z "${STEP_NAME:-}" ] || printf '[image] %-55s %4ss\n' "$STEP_NAME" "$((SECONDS - STEP_STARTED))"
  STEP_NAME=$1
  STEP_STARTED=$SECONDS
}

step "next build: .next if current, else its own in .next-image"
# Never into the checkout's .next unless it is current: an app running from this checkout reads it.
node --input-type=module -e 'import { imageBuildDir } from "./scripts/next-build.ts"; const dir = await imageBuildDir("[image]"); (await import("node:fs")).writeFileSync(process.argv[1], dir);' "$WORK/dist-dir"
DIST_DIR=$(cat "$WORK/dist-dir")

step "stage the app (from $DIST_DIR) and the pinned Node.js"
NEXT_DIST_DIR="$DIST_DIR" deploy/image/stage-app.sh . "$WORK/stage" | sed 's/^/[image] /'

step "Debian bookworm root file system (mmdebstrap)"
# Essential packages only, plus what node and the image need: libstdc++ for node, tini as PID 1,
# the CA roots. No apt, no documentation or locales (as Debian's slim images), merged /usr without usrmerge.
# Its output (hooks and dpkg talk even when quiet) is shown only when it fails.
TMPDIR="$WORK" mmdebstrap --quiet --variant=essential --include=ca-certificates,tini,libstdc++6 \
  --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --customize-hook="echo 'gateway:x:$APP_UID:$APP_UID::/app:/usr/sbin/nologin' >>\"\$1/etc/passwd\"" \
  --customize-hook="echo 'gateway:x:$APP_UID:' >>\"\$1/etc/group\"" \
  --customize-hook="install -d -o $APP_UID -g $APP_UID -m 0700 \"\$1/var/lib/gateway\" \"\$1$JOURNAL_DIR\"" \
  --customize-hook='rm -rf "$1"/var/cache/debconf/*-old "$1"/var/lib/dpkg/*-old "$1"/var/log/* "$1"/var/cache/ldconfig/aux-cache' \
  bookworm "$WORK/rootfs.tar" \
  "deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main" "deb $SECURITY_MIRROR bookworm-security main" >"$WORK/mmdebstrap.log" 2>&1 ||
  { cat "$WORK/mmdebstrap.log" >&2; echo "build-image: mmdebstrap failed" >&2; exit 1; }

step "image: buildah from scratch, copy, config, commit"
container=$("${BUILDAH[@]}" from --quiet --format docker scratch)
# The root file system as a tar: buildah extracts it keeping its owners (the journal's is the app's user).
"${BUILDAH[@]}" add --quiet "$container" "$WORK/rootfs.tar" /
"${BUILDAH[@]}" copy --quiet "$container" "$WORK/stage/node" /usr/local/bin/node
# The app belongs to root and is read-only to the app's user; only Next's cache is its to write.
"${BUILDAH[@]}" copy --quiet "$container" "$WORK/stage/app" /app
# (buildah copy --chown gives a copied directory's contents to the user, never the directory itself.)
mounted=$("${BUILDAH[@]}" mount "$container")
chown "$APP_UID:$APP_UID" "$mounted/app/.next/cache"
"${BUILDAH[@]}" umount "$container" >/dev/null
"${BUILDAH[@]}" config \
  --os linux --arch "$(dpkg --print-architecture)" \
  --user "$APP_UID:$APP_UID" \
  --workingdir /app \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_ENV=production --env NEXT_TELEMETRY_DISABLED=1 --env PORT=3000 --env HOST=0.0.0.0 \
  --env RECORD_JOURNAL_DIR="$JOURNAL_DIR" \
  --port 3000/tcp \
  --volume "$JOURNAL_DIR" \
  --stop-signal SIGTERM \
  --healthcheck 'CMD /app/bin/gateway health' \
  --healthcheck-interval 10s --healthcheck-timeout 5s --healthcheck-start-period 60s --healthcheck-retries 3 \
  --entrypoint '["/usr/bin/tini", "--", "/app/bin/gateway"]' \
  --cmd '["serve"]' \
  --label org.opencontainers.image.title=taxpayer-gateway \
  --label 'org.opencontainers.image.description=Taxpayer lookup gateway (Guatemala): API, console and portal' \
  --label org.opencontainers.image.version="$VERSION" \
  --label org.opencontainers.image.revision="$REVISION" \
  --label org.opencontainers.image.base.name=debian:bookworm \
  "$container"
"${BUILDAH[@]}" commit --quiet --format docker --timestamp "$SOURCE_DATE_EPOCH" "$container" "$IMAGE" >/dev/null

step "write the $FORMAT archive"
rm -f "$OUTPUT"
mkdir -p "$(dirname "$OUTPUT")"
case "$FORMAT" in
  oci) "${BUILDAH[@]}" push --quiet "$IMAGE" "oci-archive:$OUTPUT:$IMAGE" ;;
  docker) "${BUILDAH[@]}" push --quiet "$IMAGE" "docker-archive:$OUTPUT:$IMAGE" ;;
  *) echo "build-image: IMAGE_FORMAT must be oci or docker" >&2; exit 64 ;;
esac
step done
echo "[image] $IMAGE written to $OUTPUT ($(du -h "$OUTPUT" | cut -f1), $FORMAT) in $((SECONDS - STARTED)) s"
