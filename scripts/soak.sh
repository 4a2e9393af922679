#!/usr/bin/env bash
# A soak run of good input: N random recordings and settings through `spikeminer run`
# (scripts/soak.py says what is drawn and what counts as clean). Usage:
#   scripts/soak.sh N [--seed S] [--gpu] [--out DIR] [--spikeminer PATH] [--recordings DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/soak.py "$@"
