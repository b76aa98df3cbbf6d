#!/usr/bin/env bash
# The store's tests run against a throwaway PostgreSQL cluster too (tests/pg.py): make sure the
# server binaries are here. As root on Debian/Ubuntu, install postgresql-15 when initdb is
# missing; elsewhere say what is missing (locally the PostgreSQL tests then skip; in CI they fail).
set -euo pipefail
for dir in "${PG_BIN:-}" /usr/lib/postgresql/*/bin; do
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then exit 0; fi
done
if command -v initdb >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing postgresql-15 for the store's PostgreSQL tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql-15 >&2 || apt-get install -y -qq postgresql >&2
    exit 0
fi
echo "PostgreSQL server binaries not found (install postgresql-15, or set PG_BIN): its tests will skip here, fail in CI" >&2
