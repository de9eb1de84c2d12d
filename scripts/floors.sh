#!/usr/bin/env bash
# The core's floors (ARCHITECTURE.md, "Floors"): nothing below the capability units imports one.
# Reads `crate::<unit>` paths in the files below the units; comment lines are passed over.
# Prints each import that climbs a floor and exits 1, unless the file is in KNOWN: the places
# still to be moved down, each named with what it takes from above. The list may only shrink;
# it is empty now, and stays so.
set -euo pipefail
cd "$(dirname "$0")/.."

units='ablation|alignment|answers|attach|audit|calibration|claims|command_line|compare|compliance|ireval|ksweep|label_audit|outcomes|probe|reclaim|release|rules|web'
below=(src/cells src/stats src/report src/plots src/ingest src/choice.rs src/error.rs src/model.rs
  src/dataset.rs src/conventions.rs src/headline.rs src/capability.rs src/metrics.rs src/targets.rs
  src/rescore.rs src/distinct.rs src/parallel.rs src/labels.rs src/file_role.rs src/fields.rs src/printed)
known=()

found=$(grep -rnE "crate::($units)\b" "${below[@]}" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
climbing=$(printf '%s\n' "$found" | grep -v -F -f <(printf '%s:\n' "${known[@]}") | grep . || true)
if [ -n "$climbing" ]; then
  echo "imports that climb a floor (a module below the capability units imports one):" >&2
  printf '%s\n' "$climbing" >&2
  echo "move what is shared down (ingest/, stats/, report/, …) or pass plain data." >&2
  exit 1
fi
for f in "${known[@]}"; do
  if ! printf '%s\n' "$found" | grep -q -F "$f:"; then
    echo "scripts/floors.sh: $f no longer climbs a floor: take it off the known list." >&2
    exit 1
  fi
done
echo "floors hold: nothing below the units imports one (${#known[@]} known places left)"
