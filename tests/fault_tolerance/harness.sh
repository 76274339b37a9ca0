# Shell pieces shared by the tests that run real eddy processes and compare what they commit
# (kill9.sh, examples/acceptance/c10_production_configuration.sh). Sourced, not run; needs
# bash 5 (EPOCHREALTIME) and /proc.

# Milliseconds since the epoch; seconds MS prints MS as seconds with two decimals.
now_ms() { local micros=${EPOCHREALTIME/[.,]/}; echo $((micros / 1000)); }
seconds() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

# True while PID runs (a zombie does not count).
alive() {
  local stat
  { stat=$(</proc/"$1"/stat); } 2>/dev/null || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}

# wait_until PID DEADLINE_MS: 0 when PID ended by then (its status in EXIT_STATUS), 1 when it
# still runs at the deadline (it is left running).
wait_until() {
  local pid="$1" deadline="$2"
  while alive "$pid"; do
    (($(now_ms) < deadline)) || return 1
    sleep 0.02
  done
  { wait "$pid"; } 2>/dev/null
  EXIT_STATUS=$?
  return 0
}

# Kills PID with SIGKILL and reaps it.
kill_now() {
  kill -KILL "$1" 2>/dev/null
  { wait "$1"; } 2>/dev/null
  EXIT_STATUS=$?
}

# committed_lines DIR: each line of each visible file below DIR as "<directory>\t<line>",
# <directory> relative to DIR (the partition path). A file or directory whose name starts with
# '.' or '_' is hidden (in-progress, pending and staging files, _SUCCESS) and skipped.
committed_lines() {
  [[ -d $1 ]] || return 0
  (cd "$1" && find . -mindepth 1 \( -name '.*' -o -name '_*' \) -prune -o -type f -print0 |
    xargs -0 -r awk '{ d = FILENAME; sub(/^\.\//, "", d); if (!sub(/\/[^\/]*$/, "", d)) d = "."
                       print d "\t" $0 }')
}

# multiset_difference REFERENCE ACTUAL MISSING EXTRA: writes "<count>\t<line>" of the lines
# ACTUAL lacks and of those it has too often into MISSING and EXTRA (sorted); prints
# "<missing> <extra>" (line counts).
multiset_difference() {
  awk -v missing="$3" -v extra="$4" '
    NR == FNR { reference[$0]++; next }
    { actual[$0]++ }
    END {
      for (line in reference) {
        d = reference[line] - actual[line]
        if (d > 0) { print d "\t" line > missing; m += d }
      }
      for (line in actual) {
        d = actual[line] - reference[line]
        if (d > 0) { print d "\t" line > extra; e += d }
      }
      printf "%d %d\n", m, e
    }' "$1" "$2"
  touch "$3" "$4"
  sort -t $'\t' -k2 -o "$3" "$3"
  sort -t $'\t' -k2 -o "$4" "$4"
}

# log_tail FILE [N]: the last N (15) lines of FILE, indented, for a failure message.
log_tail() {
  echo "  --- last lines of $1:"
  tail -n "${2:-15}" "$1" | sed 's/^/  | /'
}
