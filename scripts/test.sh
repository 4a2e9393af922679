#!/usr/bin/env bash
# Quick start, second command: installs what is missing, builds with AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
cmake --preset debug-asan >/dev/null
cmake --build --preset debug-asan -j "$(nproc)"
ctest --preset debug-asan -j "$(nproc)"
