#!/usr/bin/env bash
# Builds the DocC documentation of the library targets with swift-docc-plugin, one archive per
# target in docs-out/<Target>.doccarchive (ignored by git), and fails on any DocC warning (a
# symbol link that no longer resolves, a topic that names nothing): the catalogs cannot go
# stale unnoticed. Works offline once the packages are resolved.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${DOCS_TARGETS:-"TesseraImages TesseraCollection TesseraImageBinding"}
mkdir -p docs-out
for target in $targets; do
  echo "docs: $target"
  swift package --allow-writing-to-directory docs-out \
    generate-documentation --target "$target" \
    --output-path "docs-out/$target.doccarchive" --warnings-as-errors
done
echo "docs: docs-out/ ($targets)"
