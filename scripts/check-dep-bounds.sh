#!/usr/bin/env bash
# Check that both ends of exa-orch's dependency ranges work: build two fresh venvs, one with the
# LOWEST version each range in pyproject.toml allows (uv's --resolution lowest-direct) and one
# with the NEWEST, and run the MCP, operations and view suites in each. Exit 1 if either fails.
#
#   scripts/check-dep-bounds.sh            # both ends
#   scripts/check-dep-bounds.sh lowest     # one end (lowest | newest)
#
# Needs network access to the package index. uv is installed into $DEP_BOUNDS_DIR/tool, never
# into the project. Not part of `make test` (it downloads); results are in docs/dependencies.md.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${DEP_BOUNDS_DIR:-/tmp/exa-orch-dep-bounds}
# Test a snapshot of the checkout (tracked and new files, not .venv), so edits made while the
# suites run don't leak into them, and so nothing outside the snapshot is needed.
rm -rf "$WORK/src"
mkdir -p "$WORK/src"
git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - | tar -xf - -C "$WORK/src"
cd "$WORK/src"
PYTHON=${PYTHON:-python3}
ENDS=("${@:-lowest newest}")
ENDS=(${ENDS[@]})
# The suites that exercise the dependencies: mcp, exa-py, httpx, pydantic (MCP face, operations),
# jinja2 and rich (the view; its browser test is about chromium, not a dependency's version).
SUITES=(tests/mcp tests/operations tests/view --ignore=tests/view/test_browser.py tests/workflows/test_entities.py)
if [ ! -x "$WORK/tool/bin/uv" ]; then
    "$PYTHON" -m venv "$WORK/tool"
    "$WORK/tool/bin/pip" install --quiet uv
fi
UV="$WORK/tool/bin/uv"
status=0
for end in "${ENDS[@]}"; do
    case $end in
        lowest) resolution=lowest-direct ;;
        newest) resolution=highest ;;
        *) echo "unknown end $end (lowest | newest)" >&2; exit 2 ;;
    esac
    venv="$WORK/$end"
    rm -rf "$venv"
    "$UV" venv --quiet --python "$PYTHON" "$venv"
    # The runtime dependencies at the chosen end; then the dev tools (pytest ...) at their newest,
    # which keeps every runtime version already installed.
    "$UV" pip install --quiet --python "$venv/bin/python" --resolution "$resolution" -e .
    "$UV" pip install --quiet --python "$venv/bin/python" -e '.[dev]'
    echo "== $end: $("$UV" pip freeze --python "$venv/bin/python" \
        | grep -iE '^(mcp|exa-py|aiosqlite|httpx|pydantic|tenacity|aiolimiter|starlette|uvicorn|platformdirs|jinja2|rich|tldextract|cleanco|rapidfuzz)==' \
        | tr '\n' ' ')"
    if "$venv/bin/python" -m pytest -q -p no:cacheprovider "${SUITES[@]}"; then
        echo "== $end: PASS"
    else
        echo "== $end: FAIL"
        status=1
    fi
done
exit $status
