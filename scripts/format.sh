#!/usr/bin/env bash
# Formats the C++ sources with clang-format-22 (LLVM style, .clang-format).
# With --check, only reports files that are not formatted.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files '*.cpp' '*.h' '*.hpp')
if [ "${1:-}" = "--check" ]; then
  clang-format-22 --dry-run -Werror $files
else
  clang-format-22 -i $files
fi
