#!/bin/sh
# Make sure Debian's chromium is installed for the browser tests (tests/view), which drive it
# through playwright (never `playwright install`: it downloads a browser build of its own).
# Installs it with apt-get when it is missing and we are root; otherwise says what to do and
# leaves the decision to the tests (they skip on a developer's machine and fail under CI=true).
set -eu
if command -v chromium >/dev/null 2>&1 || [ -x "${EXA_ORCH_CHROMIUM:-/usr/bin/chromium}" ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: installing Debian's chromium for the browser tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq chromium >&2
    exit 0
fi
echo "ensure-chromium: chromium is missing; install it (apt-get install chromium) or set EXA_ORCH_CHROMIUM" >&2
echo "ensure-chromium: the browser tests skip without it, and fail under CI=true" >&2
exit 0
