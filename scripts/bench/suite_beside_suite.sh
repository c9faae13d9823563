#!/usr/bin/env bash
# The check of a suite that never flakes: RUNS runs of ./scripts/test, each from a fresh
# clone of COMMIT (run A), while BESIDE (environment, default 1) more full suites run
# beside it the whole time (runs B1, B2, ...: fresh clones too, one after another, until
# A is done). BESIDE=2 is three suites at once.
#
#   scripts/bench/suite_beside_suite.sh [COMMIT [RUNS [FOLDER]]]
#
# COMMIT defaults to HEAD, RUNS to 10, FOLDER (clones and logs) to a new temporary
# folder. One line per finished run goes to FOLDER/log.txt (and stdout): the run, its exit
# status, seconds, the load average and pytest's summary lines. Each run's output is
# FOLDER/a-N.log or bK-N.log. The exit status is 0 only if every run, A or B, passed. A
# pair takes about 20 minutes on an otherwise idle 2-core machine, three at once about
# 30; after the last A run, the B runs under way are played out. Stop it early with Ctrl-C. SUITE (environment) replaces
# ./scripts/test, e.g. SUITE=true to try the script itself.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
commit=$(git -C "$repo" rev-parse "${1:-HEAD}")
runs=${2:-10}
folder=${3:-$(mktemp -d /tmp/suite-beside-suite.XXXXXX)}
mkdir -p "$folder"
log=$folder/log.txt
say() { echo "$*" | tee -a "$log"; }
summary() { grep -E '^=+ .*(passed|failed)|^[0-9]+ passed' "$1" | tr '\n' ' '; }

run() {  # run LABEL N: one fresh clone, its suite, its line in the log
  local clone=$folder/clone-$1-$2 started status
  rm -rf "$clone"
  git clone -q "$repo" "$clone" && git -C "$clone" checkout -q "$commit"
  started=$(date +%s)
  (cd "$clone" && ${SUITE:-./scripts/test} > "$folder/$1-$2.log" 2>&1)
  status=$?
  # The B runs stop at "done": mark it as soon as the last A suite ends, not after its
  # clone is removed, or a B run ending meanwhile starts one more.
  if [ "$1" = a ] && [ "$2" -eq "$runs" ]; then touch "$folder/done"; fi
  say "$1 run $2 rc=$status $(( $(date +%s) - started ))s $(date -u +%T)" \
    "load=$(cut -d' ' -f1-3 /proc/loadavg) $(summary "$folder/$1-$2.log")"
  rm -rf "$clone"
  return $status
}

say "start $(date -u +%FT%TZ) commit $commit, $runs runs, in $folder"
beside=()
for b in $(seq 1 "${BESIDE:-1}"); do
  ( n=0; while [ ! -f "$folder/done" ]; do n=$((n + 1)); run "b$b" $n; done ) &
  beside+=($!)
done
failed=0
for n in $(seq 1 "$runs"); do
  run a "$n" || failed=$((failed + 1))
done
touch "$folder/done"
wait "${beside[@]}"
others=$(grep -c '^b[0-9]* run .* rc=[1-9]' "$log")
say "end $(date -u +%FT%TZ): $((runs - failed)) of $runs A runs passed; B runs failed: $others"
[ $failed -eq 0 ] && [ "$others" -eq 0 ]
