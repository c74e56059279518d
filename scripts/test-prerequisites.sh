#!/usr/bin/env bash
# What the tests need from the machine beyond npm and PostgreSQL (which the
# tests start themselves when it is the machine's own cluster and merely
# stopped), installed from Debian's packages when missing: promtool (the
# metrics tests check the exposition with it) and Chromium with a font (the
# web chat's browser test). `npm test` runs this first; so does CI, through
# `npm test`. Without root (or password-less sudo) it says what to install,
# and the tests that need it fail with the same advice.
set -uo pipefail

missing=()
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "test prerequisites: missing ${missing[*]}; install them with: sudo apt-get install ${missing[*]}" >&2
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "test prerequisites: missing ${missing[*]} (Debian package names) and no apt-get to install them" >&2
  exit 0
fi

echo "test prerequisites: installing ${missing[*]} (apt-get)"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq &&
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
  echo "test prerequisites: apt-get could not install ${missing[*]}" >&2
exit 0
