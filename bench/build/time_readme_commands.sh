#!/usr/bin/env bash
# Times the README's demo command, then its test command, in a fresh clone of REPO: wall and
# CPU (user + sys of every process) of each, with the load average before and after (the
# numbers of bench/results/build-time-x86-2core.md).
#   bench/build/time_readme_commands.sh REPO CLONE_DIR
set -u
git clone -q "$1" "$2" && cd "$2" || exit 1
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
readme_command() { sed -n '/^## Quick start/,/^## The API/p' README.md | grep '^apt-get' | sed -n "${1}p"; }
for n in 1 2; do
  label=$([ $n = 1 ] && echo demo || echo test)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -f "$label: wall=%e user=%U sys=%S" bash -c "$(readme_command $n)" >"$label.log" 2>&1
  echo "$label: rc=$? load before [$load] after [$(cut -d' ' -f1-3 /proc/loadavg)]; $(tail -1 "$label.log")"
done
