#!/usr/bin/env bash
# The kill -9 test: the proof that a checkpointed streaming job is exactly-once (issue 24 §5,
# docs/testing.md "Exactly-once under kill -9").
#
# One run of the test:
#   1. The reference: the job runs once in BATCH mode (no checkpoints, no kills) into its own
#      directory; its committed lines are what the streaming job must end with.
#   2. The job runs in STREAMING mode as a separate `eddy sql -f` process, checkpointing every
#      200 ms into <work>/checkpoints with RETAIN_ON_CANCELLATION. At a random moment (seeded)
#      the harness kills it with SIGKILL, finds the newest complete checkpoint
#      (<dir>/<job-id>/chk-<n>/_metadata present, over every job-id directory of earlier
#      attempts; a chk directory without _metadata is never used) and starts the same job again
#      with execution.state-recovery.path set to it. After --kills kills the last attempt runs
#      to its end. One restore runs at another parallelism (--rescale-parallelism) and the next
#      one back at --parallelism, so state is split and merged by key group in both directions.
#   3. The committed output (visible files only: no name on the path starts with '.' or '_';
#      each line tagged with its partition directory) must equal the reference as a multiset
#      of lines: nothing lost, nothing duplicated. After every kill the output committed so far
#      must already be part of the reference (a duplicate is reported with the kill after
#      which it appeared).
# With --ha the attempts run under high availability (high-availability.type KUBERNETES, a
# storage directory under the run's directory, cluster id kill9, Flink's default retention) and
# name no restore path: each restarted command must find its checkpoint through the job's HA
# record (<storageDir>/kill9/<job name>.job), which the harness reads to know what it restores.
# It also checks that a second `eddy sql` with the same cluster id is refused while the first
# runs, that every checkpoint lies under one job id (HA reuses it), and that the record is gone
# once the job finished.
# A mismatch prints the seed, the kill times, the restores, and a few missing and extra lines;
# the exit status is then 1 (2 for a bad command line). Everything it needs and cannot get (the
# binary, bash 5, a kill that never happened because the job had already finished, a restore
# at another parallelism that never happened) fails the test; every wait has a deadline.
#
# The job is pluggable: --job NAME selects the functions <NAME>_start (run one attempt in
# the background) and <NAME>_check_reference (sanity figures of the BATCH result). `sql` is
# tests/fault_tolerance/kill9_job.sql; `datastream` (--program PATH) is the DataStream program
# tests/fault_tolerance/kill9_datastream.cpp (a replayable paced source, a KeyedProcessFunction
# with ValueState and event-time timers, an exactly-once FileSink), run in BATCH mode for the
# reference as well. <NAME>_completed LOG says whether a run that exited 0 completed its job.
set -u -o pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly here

usage() {
  cat <<EOF
Usage: bash tests/fault_tolerance/kill9.sh (--eddy PATH | --job datastream --program PATH) [options]

  --eddy PATH                 the eddy command (or EDDY_BIN), for --job sql
  --job NAME                  the job under test: sql (default; kill9_job.sql) or datastream
  --program PATH              the DataStream job's program, kill9_datastream (or KILL9_PROGRAM)
  --kills N                   SIGKILLs before the last attempt runs to its end (default 5)
  --seed N                    seed of the kill moments (default: the current time; printed)
  --rows N                    rows of the datagen sequence (default 24000)
  --rows-per-second N         pacing of the streaming runs (default 1000)
  --parallelism N             parallelism of the attempts (default 2)
  --rescale-parallelism N     parallelism of one restore, 0 = none (default 3)
  --checkpoint-interval D     execution.checkpointing.interval (default 200ms)
  --kill-after MIN:MAX        seconds after an attempt starts, uniform (default 0.5:3.5)
  --timeout S                 deadline of the BATCH run and of the last attempt
                              (default 30 + 2 x rows / rows-per-second)
  --repeat N                  run the test N times, seeds seed .. seed+N-1 (default 1)
  --ha                        run under high availability: restarts find their checkpoint
                              through high-availability.storageDir, no restore path is named
  --work-dir DIR              where runs keep their files (default: a new directory in \$TMPDIR)
  --keep                      keep the files of passing runs too (failing runs' are kept)
  --show N                    missing / extra lines shown on a mismatch (default 10)
EOF
}

bad_usage() {
  echo "kill9: $*" >&2
  usage >&2
  exit 2
}

eddy="${EDDY_BIN:-}"
program="${KILL9_PROGRAM:-}"
job=sql
kills=5
seed=""
rows=24000
rows_per_second=1000
parallelism=2
rescale_parallelism=3
checkpoint_interval=200ms
kill_after=0.5:3.5
timeout_seconds=""
repeat=1
work_root=""
keep=0
show=10
ha=0

while [[ $# -gt 0 ]]; do
  option="$1"
  case "$option" in
    -h|--help) usage; exit 0 ;;
    --keep) keep=1; shift; continue ;;
    --ha) ha=1; shift; continue ;;
  esac
  [[ $# -ge 2 ]] || bad_usage "$option needs a value"
  value="$2"
  shift 2
  case "$option" in
    --eddy) eddy="$value" ;;
    --job) job="$value" ;;
    --program) program="$value" ;;
    --kills) kills="$value" ;;
    --seed) seed="$value" ;;
    --rows) rows="$value" ;;
    --rows-per-second) rows_per_second="$value" ;;
    --parallelism) parallelism="$value" ;;
    --rescale-parallelism) rescale_parallelism="$value" ;;
    --checkpoint-interval) checkpoint_interval="$value" ;;
    --kill-after) kill_after="$value" ;;
    --timeout) timeout_seconds="$value" ;;
    --repeat) repeat="$value" ;;
    --work-dir) work_root="$value" ;;
    --show) show="$value" ;;
    *) bad_usage "unknown option $option" ;;
  esac
done

for name in kills rows rows_per_second parallelism rescale_parallelism repeat show; do
  [[ ${!name} =~ ^[0-9]+$ ]] || bad_usage "--${name//_/-} expects a non-negative integer, got '${!name}'"
done
[[ -n $timeout_seconds ]] || timeout_seconds=$((30 + 2 * rows / (rows_per_second > 0 ? rows_per_second : 1)))
[[ $timeout_seconds =~ ^[0-9]+$ ]] || bad_usage "--timeout expects a whole number of seconds, got '$timeout_seconds'"
[[ -z $seed || $seed =~ ^[0-9]+$ ]] || bad_usage "--seed expects a non-negative integer, got '$seed'"
[[ $kill_after =~ ^([0-9]+(\.[0-9]+)?):([0-9]+(\.[0-9]+)?)$ ]] ||
  bad_usage "--kill-after expects MIN:MAX in seconds, got '$kill_after'"
kill_min_ms=$(awk -v s="${BASH_REMATCH[1]}" 'BEGIN { printf "%d", s * 1000 }')
kill_max_ms=$(awk -v s="${BASH_REMATCH[3]}" 'BEGIN { printf "%d", s * 1000 }')
((kill_min_ms <= kill_max_ms)) || bad_usage "--kill-after: MIN is above MAX"
((rows >= 1 && rows_per_second >= 1 && parallelism >= 1 && repeat >= 1 && timeout_seconds >= 1)) ||
  bad_usage "--rows, --rows-per-second, --parallelism, --repeat and --timeout must be at least 1"
if ((rescale_parallelism == parallelism)); then
  bad_usage "--rescale-parallelism equals --parallelism; use 0 for no restore at another parallelism"
fi
if ((rescale_parallelism > 0 && kills == 0)); then
  bad_usage "a restore at another parallelism needs a kill (--kills 0 with --rescale-parallelism $rescale_parallelism)"
fi
[[ -n $seed ]] || seed=$(date +%s)

# What the test needs. Missing: the test fails (exit 1), it does not pass.
if [[ $job == datastream ]]; then
  ((!ha)) || bad_usage "--ha runs the sql job only"
  [[ -n $program ]] || { echo "kill9: FAIL: no DataStream program (--program PATH or KILL9_PROGRAM)" >&2; exit 1; }
  [[ -x $program ]] || { echo "kill9: FAIL: the program '$program' is not an executable file" >&2; exit 1; }
else
  [[ -n $eddy ]] || { echo "kill9: FAIL: no eddy command (--eddy PATH or EDDY_BIN)" >&2; exit 1; }
  [[ -x $eddy ]] || { echo "kill9: FAIL: the eddy command '$eddy' is not an executable file" >&2; exit 1; }
fi
[[ -n ${EPOCHREALTIME:-} ]] || { echo "kill9: FAIL: needs bash 5 (EPOCHREALTIME)" >&2; exit 1; }
[[ -d /proc/self ]] || { echo "kill9: FAIL: needs /proc (Linux)" >&2; exit 1; }
for tool in awk sort find xargs; do
  command -v "$tool" >/dev/null || { echo "kill9: FAIL: '$tool' not found" >&2; exit 1; }
done


source "$here/harness.sh"

# ---------------------------------------------------------------------------------------------
# The SQL job (kill9_job.sql). sql_start MODE PARALLELISM RECOVERY_PATH OUT LOG starts one run
# in the background (JOB_PID); MODE is streaming or batch, RECOVERY_PATH may be empty (with --ha
# it is not passed: the job finds its checkpoint through high availability).

sql_job_file="$here/kill9_job.sql"

sql_start() {
  local mode="$1" job_parallelism="$2" recovery="$3" out="$4" log="$5"
  local pace="$rows_per_second"
  local -a options=(-D "execution.runtime-mode=$mode" -D "parallelism.default=$job_parallelism")
  if [[ $mode == streaming ]]; then
    options+=(-D "execution.checkpointing.interval=$checkpoint_interval"
              -D "execution.checkpointing.mode=EXACTLY_ONCE"
              -D "state.checkpoints.dir=$checkpoints")
    if ((ha)); then
      options+=(-D "high-availability.type=kubernetes" -D "high-availability.storageDir=$ha_storage"
                -D "kubernetes.cluster-id=$ha_cluster_id")
    else
      options+=(-D "execution.checkpointing.externalized-checkpoint-retention=RETAIN_ON_CANCELLATION")
      [[ -z $recovery ]] || options+=(-D "execution.state-recovery.path=$recovery")
    fi
  else
    pace=1000000000  # BATCH: as fast as it goes
  fi
  KILL9_SEQ_END=$((rows - 1)) KILL9_ROWS_PER_SECOND="$pace" KILL9_OUT="$out" \
    "$eddy" sql -f "$sql_job_file" "${options[@]}" </dev/null >"$log" 2>&1 &
  JOB_PID=$!
}

# Figures of the reference computed independently of eddy, so that a wrong BATCH result
# cannot pass for the truth: every row is in exactly one window, and the number of join pairs
# (the conditions of kill9_job.sql: seq % 3 = 0 with seq % 5 = 0, the same seq % 7, at most
# 25 rows apart; keep the two in step).
sql_check_reference() {
  local lines="$1"
  local windows window_rows join_lines expected_join
  windows=$(awk -F'\t' '$1 ~ /^kind=window\// { n++ } END { print n + 0 }' "$lines")
  window_rows=$(awk -F'\t' '$1 ~ /^kind=window\// { split($2, f, ","); n += f[4] } END { print n + 0 }' "$lines")
  join_lines=$(awk -F'\t' '$1 ~ /^kind=join\// { n++ } END { print n + 0 }' "$lines")
  expected_join=$(awk -v rows="$rows" 'BEGIN {
    for (a = 0; a < rows; a += 3)
      for (b = a - 25; b <= a + 25; b++)
        if (b >= 0 && b < rows && b % 5 == 0 && b % 7 == a % 7) n++
    print n + 0 }')
  if ((window_rows != rows)); then
    echo "the BATCH result's windows count $window_rows rows, not $rows"
    return 1
  fi
  if ((join_lines != expected_join)); then
    echo "the BATCH result has $join_lines join rows, not $expected_join"
    return 1
  fi
  echo "$windows window rows over $rows rows, $join_lines join rows"
}
sql_completed() { grep -q '^\[INFO\] Complete execution of the SQL update statement' "$1"; }

# ---------------------------------------------------------------------------------------------
# The DataStream job (kill9_datastream.cpp), the same interface as the SQL job's.

datastream_start() {
  local mode="$1" job_parallelism="$2" recovery="$3" out="$4" log="$5"
  local -a arguments=(--mode "$mode" --parallelism "$job_parallelism" --rows "$rows" --out "$out")
  if [[ $mode == streaming ]]; then
    arguments+=(--rows-per-second "$rows_per_second" --checkpoint-dir "$checkpoints"
                --checkpoint-interval "$checkpoint_interval")
    [[ -z $recovery ]] || arguments+=(--restore "$recovery")
  else
    arguments+=(--rows-per-second 1000000000)  # BATCH: as fast as it goes
  fi
  "$program" "${arguments[@]}" </dev/null >"$log" 2>&1 &
  JOB_PID=$!
}

# Figures of the reference computed independently of eddy: the lines
# k=<seq % 7>,bucket=<seq * 10 / 1000>,n=..,sum=..,lo=..,hi=.. (keep in step with
# kill9_datastream.cpp) count every row once, sum to 0 + 1 + .. + rows-1, and there is one per
# (k, bucket) pair that has rows.
datastream_check_reference() {
  local lines="$1" figures expected_lines expected_sum
  figures=$(awk -F'\t' '{ split($2, fields, ","); delete value
                          for (i in fields) { split(fields[i], pair, "="); value[pair[1]] = pair[2] }
                          n += value["n"]; sum += value["sum"]; count++ }
                        END { printf "%d %.0f %d\n", n, sum, count }' "$lines")
  expected_lines=$(awk -v rows="$rows" 'BEGIN {
    for (q = 0; q < rows; q++) seen[(q % 7) " " int(q * 10 / 1000)] = 1
    for (key in seen) n++
    print n + 0 }')
  expected_sum=$(awk -v rows="$rows" 'BEGIN { printf "%.0f\n", rows * (rows - 1) / 2 }')
  if [[ $figures != "$rows $expected_sum $expected_lines" ]]; then
    echo "the BATCH result has (rows, sum, lines) = ($figures), not ($rows $expected_sum $expected_lines)"
    return 1
  fi
  echo "$expected_lines (key, bucket) lines over $rows rows"
}
datastream_completed() { grep -q '^kill9_datastream: FINISHED' "$1"; }

# ---------------------------------------------------------------------------------------------
# Pieces of one run (harness.sh has those the tests share).

# Prints up to $show lines of a difference file, with their counts.
show_lines() {
  local title="$1" file="$2" total="$3"
  ((total > 0)) || return 0
  echo "  $title ($total; the first $show distinct):"
  head -n "$show" "$file" | awk -F'\t' '{ c = $1; sub(/^[^\t]*\t/, ""); printf "    %s%s\n", $0, (c > 1 ? "   (x" c ")" : "") }'
}

# complete_checkpoints_with_times: "<mtime of _metadata>\t<id>\t<directory>" of each complete checkpoint
# under $checkpoints: a <job-id>/chk-<n> directory holding _metadata (one without it is
# incomplete and never used).
complete_checkpoints_with_times() {
  [[ -d $checkpoints ]] || return 0
  find "$checkpoints" -mindepth 3 -maxdepth 3 -type f -name _metadata -printf '%T@\t%h\n' |
    awk -F'\t' '{ id = $2; sub(/^.*\/chk-/, "", id); if (id ~ /^[0-9]+$/ && $2 ~ /\/chk-[0-9]+$/) print $1 "\t" id "\t" $2 }'
}
complete_checkpoints() { complete_checkpoints_with_times | cut -f 3; }

# newest_checkpoint: "<id> <directory>" of the newest complete checkpoint over every job-id
# directory, by the time its _metadata was written, then by id; nothing when there is none.
newest_checkpoint() {
  complete_checkpoints_with_times | sort -t $'\t' -k1,1g -k2,2n | tail -n 1 | cut -f 2,3 | tr '\t' ' '
}

# checkpoint_key DIR ID: "<mtime of DIR/_metadata> <ID>", which tells apart two checkpoints
# written to one directory (under --ha a restart reuses the job id, and a checkpoint the killed
# process stored but did not record is removed and its id used again), however DIR is spelled.
checkpoint_key() {
  local time
  time=$(find "$1/_metadata" -maxdepth 0 -printf '%T@' 2>/dev/null) || return 1
  [[ -n $time ]] || return 1
  echo "$time $2"
}

# --ha: the job's HA records (<storageDir>/<cluster id>/*.job), one per line.
ha_records() {
  [[ -d $ha_storage/$ha_cluster_id ]] || return 0
  find "$ha_storage/$ha_cluster_id" -maxdepth 1 -type f -name '*.job' -print
}

# --ha: "<id> <directory>" of the latest checkpoint the job's record names (the last
# "checkpoint <id> <directory>" line, docs/state_format.md); nothing when it names none.
ha_recorded_checkpoint() {
  awk '$1 == "checkpoint" { line = $0 } END { if (line != "") { sub(/^checkpoint /, "", line); print line } }' "$1"
}

# --ha: ha_check_second_process_refused PARALLELISM OUT LOG: once the attempt JOB_PID holds the
# cluster's lock (its HA record exists), a second run of the same command must be refused by it:
# exit with an error naming the cluster, before its job starts. 0 when it was, 2 when the
# attempt ended first (its own checks report that), 1 with the reason in HA_CHECK_ERROR.
ha_check_second_process_refused() {
  local second_parallelism="$1" out="$2" second_log="$3" deadline main_pid="$JOB_PID"
  HA_CHECK_ERROR=""
  deadline=$(($(now_ms) + 15000))
  while [[ -z $(ha_records) ]]; do
    alive "$main_pid" || return 2
    (($(now_ms) < deadline)) || { HA_CHECK_ERROR="no high-availability record appeared within 15 s"; return 1; }
    sleep 0.02
  done
  "${job}_start" streaming "$second_parallelism" "" "$out" "$second_log"
  SECOND_PID="$JOB_PID"
  JOB_PID="$main_pid"
  if ! wait_until "$SECOND_PID" $(($(now_ms) + 20000)); then
    kill_now "$SECOND_PID"
    SECOND_PID=""
    HA_CHECK_ERROR="a second eddy process with cluster id $ha_cluster_id was not refused: it still ran after 20 s"
    return 1
  fi
  SECOND_PID=""
  if ((EXIT_STATUS == 0)); then
    HA_CHECK_ERROR="a second eddy process with cluster id $ha_cluster_id exited 0 while the first ran"
    return 1
  fi
  if ! grep -q "is the leader of high-availability cluster '$ha_cluster_id'" "$second_log"; then
    HA_CHECK_ERROR="a second eddy process with cluster id $ha_cluster_id failed (status $EXIT_STATUS), but not on the cluster lock"
    return 1
  fi
  return 0
}

# ---------------------------------------------------------------------------------------------
# One run of the test with seed $1 in directory $2; exit status 0 when the output is exact.
# Runs in a subshell: `fail` ends the run only.

run_once() {
  local run_seed="$1" run_dir="$2"
  local reference_out="$run_dir/reference/out" stream_out="$run_dir/stream/out"
  checkpoints="$run_dir/stream/checkpoints"
  ha_storage="$run_dir/stream/ha"
  ha_cluster_id=kill9
  local ha_flag=""
  ((ha)) && ha_flag=" --ha"
  mkdir -p "$run_dir/reference" "$run_dir/stream" "$run_dir/logs" || exit 1
  JOB_PID=""
  SECOND_PID=""
  # No eddy process outlives the run, also when the harness is stopped (CTest's timeout).
  trap '[[ -n $JOB_PID ]] && alive "$JOB_PID" && kill -KILL "$JOB_PID" 2>/dev/null
        [[ -n $SECOND_PID ]] && alive "$SECOND_PID" && kill -KILL "$SECOND_PID" 2>/dev/null' EXIT
  trap 'echo "kill9: stopped (seed $run_seed); files kept in $run_dir"; exit 143' TERM INT
  local started_ms kill_times="" restores="" duplicates_after=""
  started_ms=$(now_ms)

  fail() {
    echo "kill9: FAIL (seed $run_seed): $1"
    shift
    local line
    for line in "$@"; do [[ -z $line ]] || echo "$line"; done
    echo "  kill times (s after each attempt started):${kill_times:- none}"
    echo "  restores:${restores:- none}"
    [[ -z $duplicates_after ]] || echo "  lines not in the reference were committed after $duplicates_after"
    echo "  rerun: bash tests/fault_tolerance/kill9.sh ${eddy:+--eddy $eddy }${program:+--program $program }--job $job --seed $run_seed" \
         "--kills $kills --rows $rows --rows-per-second $rows_per_second --parallelism $parallelism" \
         "--rescale-parallelism $rescale_parallelism --checkpoint-interval $checkpoint_interval" \
         "--kill-after $kill_after --timeout $timeout_seconds$ha_flag"
    echo "  files kept in $run_dir"
    exit 1
  }

  # The kill moments, from the seed alone.
  local -a kill_after_ms
  mapfile -t kill_after_ms < <(awk -v seed="$run_seed" -v n="$kills" -v lo="$kill_min_ms" -v hi="$kill_max_ms" \
    'BEGIN { srand(seed); for (i = 0; i < n; i++) printf "%d\n", lo + rand() * (hi - lo) }')
  local plan="no kill" ms
  if ((kills > 0)); then
    plan="$kills kills planned at"
    for ms in "${kill_after_ms[@]}"; do plan+=" $(seconds "$ms")"; done
    plan+=" s"
  fi
  if ((rescale_parallelism > 0)); then
    plan+=", one restore at parallelism $rescale_parallelism"
  else
    plan+=", no restore at another parallelism"
  fi
  ((ha)) && plan+=", under high availability (no restore path named)"
  echo "kill9: seed $run_seed; job $job, $rows rows at $rows_per_second rows/s, parallelism $parallelism;" \
       "$plan; files in $run_dir"

  # 1. The reference.
  local reference_log="$run_dir/logs/reference.log"
  "${job}_start" batch "$parallelism" "" "$reference_out" "$reference_log"
  if ! wait_until "$JOB_PID" $(($(now_ms) + timeout_seconds * 1000)); then
    kill_now "$JOB_PID"
    fail "the BATCH run did not end within $timeout_seconds s" "$(log_tail "$reference_log")"
  fi
  ((EXIT_STATUS == 0)) || fail "the BATCH run exited with status $EXIT_STATUS" "$(log_tail "$reference_log")"
  "${job}_completed" "$reference_log" ||
    fail "the BATCH run exited 0 without completing its job" "$(log_tail "$reference_log")"
  committed_lines "$reference_out" | sort >"$run_dir/reference/lines"
  local reference_count check
  reference_count=$(wc -l <"$run_dir/reference/lines")
  ((reference_count > 0)) || fail "the BATCH run committed no line" "$(log_tail "$reference_log")"
  check=$("${job}_check_reference" "$run_dir/reference/lines") || fail "wrong reference: $check"
  echo "kill9: reference (BATCH): $reference_count lines in $(seconds $(($(now_ms) - started_ms))) s: $check"

  # 2. The streaming attempts. Attempt i < kills is killed; attempt `kills` runs to its end.
  # The parallelism each complete checkpoint was taken at (by the attempt after which it
  # first appeared), by checkpoint_key.
  local -A parallelism_of_checkpoint=()
  local attempt restore="" restore_key="" restore_id=-1 restore_parallelism=0 rescale_from=$(((kills + 1) / 2))
  # The restore at another parallelism: 0 not yet, 1 running at --rescale-parallelism (until an
  # attempt there completes a checkpoint or is the last), 2 done (the next attempts run at
  # --parallelism again, so the next restore goes back). A cross restore counts when its
  # attempt then completed a checkpoint or ran to the end: only then did its output depend on
  # the redistributed state.
  local rescale_state=0 cross_restores="" checkpoint_restores=0 stream_started_ms
  stream_started_ms=$(now_ms)
  for ((attempt = 0; attempt <= kills; attempt++)); do
    local final=$((attempt == kills)) attempt_parallelism="$parallelism" log="$run_dir/logs/attempt-$attempt.log"
    if ((rescale_parallelism > 0 && rescale_state == 0 && attempt >= rescale_from && restore_id >= 0)); then
      rescale_state=1
    fi
    ((rescale_state == 1)) && attempt_parallelism="$rescale_parallelism"
    local description="attempt $attempt: parallelism $attempt_parallelism"
    local restored="$restore" restored_parallelism="$restore_parallelism"
    if [[ -n $restore ]]; then
      description+=", restores chk-$restore_id (taken at parallelism $restore_parallelism)"
      checkpoint_restores=$((checkpoint_restores + 1))
      restores+=" chk-$restore_id@$restore_parallelism->$attempt_parallelism"
    else
      description+=", from the start"
      restores+=" start@$attempt_parallelism"
    fi
    local attempt_started_ms killed_after_ms=0
    attempt_started_ms=$(now_ms)
    "${job}_start" streaming "$attempt_parallelism" "$restore" "$stream_out" "$log"
    if ((final)); then
      if ! wait_until "$JOB_PID" $((attempt_started_ms + timeout_seconds * 1000)); then
        kill_now "$JOB_PID"
        fail "$description: did not end within $timeout_seconds s" "$(log_tail "$log")"
      fi
      ((EXIT_STATUS == 0)) || fail "$description: exited with status $EXIT_STATUS" "$(log_tail "$log")"
      "${job}_completed" "$log" ||
        fail "$description: exited 0 without completing its job" "$(log_tail "$log")"
      description+="; ran to its end in $(seconds $(($(now_ms) - attempt_started_ms))) s"
      if ((ha)); then
        [[ -z $(ha_records) ]] || fail "$description: the job finished, but its high-availability record is still there: $(ha_records)"
        description+=", its high-availability record removed"
      fi
    else
      if ((ha && attempt == 0)); then
        local refused=0
        ha_check_second_process_refused "$attempt_parallelism" "$stream_out" "$run_dir/logs/second-process.log" ||
          refused=$?
        if ((refused == 1)); then
          kill_now "$JOB_PID"
          fail "$description: $HA_CHECK_ERROR" "$(log_tail "$run_dir/logs/second-process.log")"
        fi
        ((refused == 0)) && description+="; a second process was refused"
      fi
      if wait_until "$JOB_PID" $((attempt_started_ms + kill_after_ms[attempt])); then
        if ((EXIT_STATUS == 0)); then
          fail "$description: the job ended after $(seconds $(($(now_ms) - attempt_started_ms))) s, before kill $((attempt + 1)) of $kills was due (raise --rows or lower --rows-per-second)" \
               "$(log_tail "$log")"
        fi
        fail "$description: exited with status $EXIT_STATUS before its kill" "$(log_tail "$log")"
      fi
      killed_after_ms=$(($(now_ms) - attempt_started_ms))
      kill_now "$JOB_PID"
      kill_times+=" $(seconds "$killed_after_ms")"
      description+="; killed after $(seconds "$killed_after_ms") s"
    fi
    JOB_PID=""

    # The complete checkpoints that appeared were taken by this attempt.
    local checkpoint_time checkpoint_id checkpoint_dir
    while IFS=$'\t' read -r checkpoint_time checkpoint_id checkpoint_dir; do
      [[ -n ${parallelism_of_checkpoint["$checkpoint_time $checkpoint_id"]:-} ]] ||
        parallelism_of_checkpoint["$checkpoint_time $checkpoint_id"]="$attempt_parallelism"
    done < <(complete_checkpoints_with_times)
    if ((ha)); then
      # HA reuses the job id: every checkpoint of every attempt is in one job-id directory.
      local job_directories
      job_directories=$(complete_checkpoints | sed 's|/[^/]*$||' | sort -u | wc -l)
      ((job_directories <= 1)) || fail "$description: the checkpoints lie in $job_directories job-id directories under $checkpoints (high availability reuses one job id)"
    fi

    # The checkpoint the next attempt restores.
    local progressed=$final
    if ((!final)); then
      local newest newest_id newest_dir newest_key
      if ((ha)); then
        # What the next attempt restores is what the job's HA record names.
        local records
        records=$(ha_records)
        [[ $records != *$'\n'* ]] || fail "$description: more than one high-availability record: $records"
        if [[ -z $records ]]; then
          [[ -z $restore ]] || fail "$description: the high-availability record of the job is gone"
          newest=""  # killed before its job started
        else
          newest=$(ha_recorded_checkpoint "$records")
          [[ -z $newest || -f ${newest#* }/_metadata ]] ||
            fail "$description: ${newest#* }, the checkpoint the high-availability record $records names, is not complete"
        fi
      else
        newest=$(newest_checkpoint)
      fi
      if [[ -z $newest ]]; then
        [[ -z $restore ]] || fail "$description: no complete checkpoint left (chk-$restore_id, restored by this attempt, is gone)"
        description+="; no complete checkpoint yet"
      else
        newest_id="${newest%% *}"
        newest_dir="${newest#* }"
        if ((newest_id < restore_id)); then
          fail "$description: the newest complete checkpoint, chk-$newest_id ($newest_dir), is older than the one it restored, chk-$restore_id"
        fi
        newest_key=$(checkpoint_key "$newest_dir" "$newest_id") || fail "$description: $newest_dir vanished (internal error)"
        if [[ $newest_key == "$restore_key" ]]; then
          description+="; no new checkpoint completed"
        else
          description+="; newest complete checkpoint chk-$newest_id"
          ((ha)) && description+=" (recorded for high availability)"
          progressed=1
        fi
        restore="$newest_dir"
        restore_key="$newest_key"
        restore_id="$newest_id"
        restore_parallelism="${parallelism_of_checkpoint[$newest_key]:-}"
        [[ -n $restore_parallelism ]] || fail "$description: $newest_dir appeared after no attempt (internal error)"
      fi
    fi
    if ((progressed && rescale_state == 1)); then rescale_state=2; fi
    if [[ -n $restored ]] && ((progressed && restored_parallelism != attempt_parallelism)); then
      cross_restores+=" $restored_parallelism->$attempt_parallelism (attempt $attempt)"
    fi
    if ((final)); then
      echo "kill9: $description"
      break
    fi

    # What is committed now must be part of the reference: nothing duplicated, nothing foreign.
    committed_lines "$stream_out" | sort >"$run_dir/stream/lines-after-kill-$((attempt + 1))"
    local counts committed extra
    counts=$(multiset_difference "$run_dir/reference/lines" "$run_dir/stream/lines-after-kill-$((attempt + 1))" \
      /dev/null "$run_dir/stream/extra-after-kill-$((attempt + 1))" 2>/dev/null)
    extra="${counts#* }"
    committed=$(wc -l <"$run_dir/stream/lines-after-kill-$((attempt + 1))")
    description+="; $committed lines committed"
    if ((extra > 0)); then
      description+=", $extra of them not in the reference (duplicated or wrong)"
      [[ -n $duplicates_after ]] || duplicates_after="kill $((attempt + 1)) (after $(seconds "$killed_after_ms") s of attempt $attempt)"
    fi
    echo "kill9: $description"
  done

  # 3. The comparison.
  committed_lines "$stream_out" | sort >"$run_dir/stream/lines"
  local counts missing extra stream_count hidden
  counts=$(multiset_difference "$run_dir/reference/lines" "$run_dir/stream/lines" \
    "$run_dir/stream/missing" "$run_dir/stream/extra")
  missing="${counts% *}"
  extra="${counts#* }"
  stream_count=$(wc -l <"$run_dir/stream/lines")
  hidden=$(find "$stream_out" -mindepth 1 \( -name '.*' -o -name '_*' \) 2>/dev/null | wc -l)
  local late
  late=$(grep -h 'dropped as late' "$run_dir"/logs/attempt-*.log 2>/dev/null | sed 's/^/    /')
  if ((missing > 0 || extra > 0)); then
    local -a details=("  committed $stream_count lines, the BATCH reference $reference_count")
    [[ -z $late ]] || details+=("  the attempts dropped late records (watermarks or source positions not restored?):" "$late")
    fail "the committed output differs from the BATCH result: $missing lines missing, $extra extra" \
      "${details[@]}" "$(show_lines "missing (in the BATCH result, not committed)" "$run_dir/stream/missing" "$missing")" \
      "$(show_lines "extra (committed, not in the BATCH result, or too often)" "$run_dir/stream/extra" "$extra")"
  fi
  # Without a restore the kills proved nothing (an output equal to the BATCH result could come
  # from the last attempt alone).
  if ((kills > 0 && checkpoint_restores == 0)); then
    fail "no attempt restored a checkpoint: none was complete at any kill"
  fi
  if ((rescale_parallelism > 0)) && [[ -z $cross_restores ]]; then
    fail "no restore at another parallelism took effect (it needs a complete checkpoint at a kill from kill $rescale_from on, and a checkpoint or the end after it)"
  fi
  local rescale_note="no restore at another parallelism"
  [[ -z $cross_restores ]] || rescale_note="restores at another parallelism:$cross_restores"
  echo "kill9: PASS (seed $run_seed): $stream_count committed lines equal the BATCH result;" \
       "$kills kills${kill_times:+ at$kill_times s}, $checkpoint_restores restores from a checkpoint; $rescale_note; streaming $(seconds $(($(now_ms) - stream_started_ms))) s," \
       "total $(seconds $(($(now_ms) - started_ms))) s; $hidden hidden files left"
  exit 0
}

# ---------------------------------------------------------------------------------------------

[[ $(type -t "${job}_start") == function && $(type -t "${job}_check_reference") == function &&
   $(type -t "${job}_completed") == function ]] ||
  bad_usage "unknown job '$job'"
if [[ -z $work_root ]]; then
  work_root=$(mktemp -d "${TMPDIR:-/tmp}/eddy-kill9.XXXXXX") || { echo "kill9: FAIL: cannot make a work directory" >&2; exit 1; }
else
  mkdir -p "$work_root" || { echo "kill9: FAIL: cannot make $work_root" >&2; exit 1; }
fi

passed=0
failed_seeds=()
for ((run = 0; run < repeat; run++)); do
  run_seed=$((seed + run))
  run_dir="$work_root/seed-$run_seed"
  rm -rf "$run_dir"
  # In the background, so that a TERM or INT reaching the harness is passed on at once.
  (run_once "$run_seed" "$run_dir") &
  run_pid=$!
  trap 'kill -TERM "$run_pid" 2>/dev/null; wait "$run_pid"; exit 143' TERM INT
  wait "$run_pid"
  run_status=$?
  trap - TERM INT
  if ((run_status == 0)); then
    passed=$((passed + 1))
    ((keep)) || rm -rf "$run_dir"
  else
    failed_seeds+=("$run_seed")
  fi
done
((keep)) || rmdir "$work_root" 2>/dev/null

if ((repeat > 1)); then
  echo "kill9: $passed of $repeat runs passed (seeds $seed .. $((seed + repeat - 1)))${failed_seeds[*]:+; failed: ${failed_seeds[*]}}"
fi
((${#failed_seeds[@]} == 0))
