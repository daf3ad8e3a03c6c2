#!/usr/bin/env bash
# Peak memory of one command, split the way it matters for a mapped input: private memory
# (RssAnon: heap, stacks) and mapped file pages (RssFile: clean page cache the kernel can
# drop). /usr/bin/time -v's "Maximum resident set size" counts both.
#
# usage: tools/peak_memory.sh COMMAND [ARGS...]
#   e.g. tools/peak_memory.sh build/tools/argx reduce a.npy -o i.npy --dim 0
# Prints the command's own output, then "peak RssAnon N kB, peak RssFile N kB" (sampled
# every 10 ms from /proc/PID/status) and time -v's wall time, maximum RSS and exit status.
set -u
log=$(mktemp)
trap 'rm -f "$log"' EXIT
/usr/bin/time -v -o "$log" "$@" &
timer=$!
pid=""
while [ -z "$pid" ] && kill -0 "$timer" 2>/dev/null; do pid=$(pgrep -P "$timer" | head -n 1); done
anon=0
file=0
while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
  read -r a f < <(awk '/^RssAnon/ {a = $2} /^RssFile/ {f = $2} END {print a + 0, f + 0}' "/proc/$pid/status" 2>/dev/null)
  [ "${a:-0}" -gt "$anon" ] && anon=$a
  [ "${f:-0}" -gt "$file" ] && file=$f
  sleep 0.01
done
wait "$timer"
status=$?
echo "peak RssAnon $anon kB, peak RssFile $file kB"
grep -E "Elapsed|Maximum resident|Exit status" "$log"
exit $status
