#!/bin/sh
# The container tests' stand-in for the official Node image (they cannot pull one: no registry is
# reachable here): Debian trixie minbase from the mirror apt already uses, this machine's `node` and
# npm at the official image's paths (/usr/local/bin, /usr/local/lib/node_modules/npm), and this
# machine's CA bundle (a TLS-inspecting egress proxy needs it; NODE_EXTRA_CA_CERTS names it), imported
# as IMAGE. The Containerfile is the same; only its NODE_IMAGE differs.
#   deploy/test/make-base-image.sh localhost/sgx-node-base:trixie
set -eu
IMAGE=${1:?usage: make-base-image.sh IMAGE}
MIRROR=${DEBIAN_MIRROR:-$( (cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs: *//p';
  sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\(http[^ ]*debian\) .*/\2/p' /etc/apt/sources.list 2>/dev/null) |
  grep -E "/debian/?$" | head -n 1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
NODE=$(command -v node)
NPM_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
ROOTFS=$(mktemp -d "${TMPDIR:-/var/tmp}/sgx-base-XXXXXX")
trap 'rm -rf "$ROOTFS"' EXIT
echo "debootstrap --variant=minbase trixie from $MIRROR (about a minute)…"
debootstrap --variant=minbase trixie "$ROOTFS" "$MIRROR" >"$ROOTFS.log" 2>&1 || { tail -n 20 "$ROOTFS.log"; exit 1; }
rm -f "$ROOTFS.log"
install -m 0755 "$NODE" "$ROOTFS/usr/local/bin/node"
mkdir -p "$ROOTFS/usr/local/lib/node_modules"
cp -a "$NPM_DIR" "$ROOTFS/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
mkdir -p "$ROOTFS/etc/ssl/certs"
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  cp /etc/ssl/certs/ca-certificates.crt "$ROOTFS/etc/ssl/certs/ca-certificates.crt"
fi
rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
tar -C "$ROOTFS" -c . | podman import \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$IMAGE" >/dev/null
echo "Imported $IMAGE (node $("$NODE" --version), npm $(npm --version))"
