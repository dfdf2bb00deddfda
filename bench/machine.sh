# Sourced by the bench scripts (with root set to the repository): what their results name, the
# machine's CPU, the commit and whether the tree had uncommitted changes.
cpu=$(lscpu 2>/dev/null | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print $2; exit}')
# a virtual machine may name only the vendor ("AMD EPYC"): the family and model tell the generation
family=$(awk -F: '/^cpu family/ {gsub(/ /, "", $2); print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
model=$(awk -F: '/^model[ \t]*:/ {gsub(/ /, "", $2); print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
wide=$(grep -qw avx512f /proc/cpuinfo 2>/dev/null && echo ", AVX-512" || true)
[ -n "$family" ] && cpu="$cpu (family $family, model $model$wide)"
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo " (with uncommitted changes)" || true)
