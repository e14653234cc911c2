#!/usr/bin/env bash
# The warm scan A/B of README "Beside the Python data loaders": results/peers-1m/scan-ab/run.sh, run
# with the harness's four-epoch scans (rows/s the median of the three after the first), into this folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../../peers-1m/scan-ab/run.sh" "$here"
