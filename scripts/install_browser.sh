#!/usr/bin/env bash
# Install Debian's chromium for the browser test of the phone page (tests/vision/web/test_browser.py).
#
# The test drives the system chromium through the PyPI `playwright` package (executable_path), so no
# browser download (`playwright install`) is ever needed. Idempotent and never fails the caller:
#   - does nothing when /usr/bin/chromium (or $CHROMIUM) already exists;
#   - as root (or with sudo) on a machine with apt-get: apt-get install chromium (+ CJK fonts for the page);
#   - otherwise prints why it cannot, exits 0, and the browser test skips with that reason.
set -uo pipefail

BROWSER="${CHROMIUM:-/usr/bin/chromium}"
if [ -x "$BROWSER" ]; then
    echo "install_browser: $BROWSER is already installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_browser: no apt-get on this machine; install chromium yourself (the browser test skips without it)"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "install_browser: not root and no password-less sudo; cannot install chromium (the browser test skips)"
        exit 0
    fi
fi
export DEBIAN_FRONTEND=noninteractive
echo "install_browser: installing chromium with apt-get"
if ! $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null 2>&1; then
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    if ! $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk; then
        echo "install_browser: apt-get could not install chromium (the browser test skips)"
        exit 0
    fi
fi
if [ -x "$BROWSER" ]; then
    echo "install_browser: installed $("$BROWSER" --version 2>/dev/null || echo chromium)"
else
    echo "install_browser: chromium installed but $BROWSER is missing (set CHROMIUM=/path/to/chromium)"
fi
exit 0
