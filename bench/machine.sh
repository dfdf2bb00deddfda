# Sourced by the bench scripts (with root set to the repository): what their results name, the
# machine's CPU, the commit and whether the tree had uncommitted changes.
cpu=$(lscpu 2>/dev/null | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2; exit}')
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo " (with uncommitted changes)" || true)
