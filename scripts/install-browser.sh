#!/usr/bin/env bash
# Install headless Chromium (Debian package `chromium`) for the test that opens the HTML report
# in a real browser (tests/test_report_browser.py). Needs apt-get and root (or sudo); prints
# the browser's path on success and exits non-zero, saying why, where it cannot install.
#   bash scripts/install-browser.sh
set -euo pipefail
for name in chromium chromium-browser; do
    if command -v "$name" >/dev/null 2>&1; then
        command -v "$name"
        exit 0
    fi
done
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: apt-get not found; install Chromium with your system's package manager" >&2
    exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    echo "install-browser: installing the Debian package 'chromium' needs root (or password-less sudo)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    $SUDO apt-get update -qq >&2
fi
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
command -v chromium
