#!/usr/bin/env bash
# ACCEPTANCE C10, its checkpointing part (issue 24): seed 000's production configuration file
# (src/client/tests/data/production.yaml, the seed's text) drives a real streaming job through
# `eddy sql --config`, and every checkpointing and high-availability key in it is honoured.
# (The RocksDB keys are issue 28's part of C10; the client says they are not honoured yet.)
#
#   1. The file as the seed writes it: its directories are on s3a://, which eddy cannot write,
#      so a streaming job fails at once with an error naming the option; the file's other keys
#      load (the warnings are compared with expected/c10_as_written.stderr).
#   2. The same file with `s3a://my-bucket` replaced by a local directory, as a user runs it on
#      one machine. The job of the kill -9 test (tests/fault_tolerance/kill9_job.sql) runs in
#      BATCH mode for the reference, then in STREAMING mode paced to run past one checkpoint
#      interval:
#      - high-availability.type/storageDir and kubernetes.cluster-id: a second process with the
#        same configuration is refused while the first runs;
#      - execution.checkpointing.interval 60s: the first complete checkpoint
#        (state.checkpoints.dir/<job id>/chk-1/_metadata) appears no sooner than 60 s after the
#        job started, and soon after;
#      - the process is then killed with SIGKILL; its HA record names chk-1; the same command
#        started again (no restore path named) resumes from it, runs to its end and commits
#        through its final checkpoint (EXACTLY_ONCE): the committed lines equal the BATCH
#        reference, nothing lost or duplicated; the finished job's HA record and checkpoints
#        are gone (RETAIN_ON_CANCELLATION keeps them only when a job is cancelled or fails).
# Usage: c10_production_configuration.sh EDDY CONFIG_FILE EXPECTED_DIR
set -u -o pipefail
export LC_ALL=C

eddy="$1" config="$2" expected="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
job_sql="$here/../../tests/fault_tolerance/kill9_job.sql"
# shellcheck source=../../tests/fault_tolerance/harness.sh
source "$here/../../tests/fault_tolerance/harness.sh"

rows=7000               # at 100 rows/s: 70 s, past the first checkpoint at 60 s
rows_per_second=100
interval_ms=60000
work="$(mktemp -d)"
JOB_PID="" SECOND_PID=""
trap '[[ -n $JOB_PID ]] && alive "$JOB_PID" && kill -KILL "$JOB_PID" 2>/dev/null
      [[ -n $SECOND_PID ]] && alive "$SECOND_PID" && kill -KILL "$SECOND_PID" 2>/dev/null' EXIT

fail() {
  echo "C10: FAIL: $1"
  shift
  local line
  for line in "$@"; do [[ -z $line ]] || echo "$line"; done
  echo "  files kept in $work"
  exit 1
}

[[ -x $eddy ]] || fail "the eddy command '$eddy' is not an executable file"
[[ -f $config ]] || fail "no configuration file '$config'"
[[ -n ${EPOCHREALTIME:-} ]] || fail "needs bash 5 (EPOCHREALTIME)"

export JOB_NAME=order-analytics  # the seed's file names its directories by ${JOB_NAME}

# run_job CONFIG MODE OUT LOG [ARGS...]: the job in the background (JOB_PID).
run_job() {
  local job_config="$1" mode="$2" out="$3" log="$4"
  shift 4
  local pace="$rows_per_second"
  [[ $mode == batch ]] && pace=1000000000
  KILL9_SEQ_END=$((rows - 1)) KILL9_ROWS_PER_SECOND="$pace" KILL9_OUT="$out" \
    "$eddy" sql --config "$job_config" -D "execution.runtime-mode=$mode" -D parallelism.default=2 \
    "$@" -f job.sql </dev/null >"$log" 2>&1 &
  JOB_PID=$!
}

completed() { grep -q '^\[INFO\] Complete execution of the SQL update statement' "$1"; }

# 1. The file as written.
cd "$work" || exit 1
cp "$config" production.yaml
cp "$job_sql" job.sql  # run from here, so messages name it by a stable path
run_job production.yaml streaming "$work/as-written-out" "$work/as-written.log"
wait_until "$JOB_PID" $(($(now_ms) + 60000)) || { kill_now "$JOB_PID"; fail "the job on s3a:// did not end within 60 s" "$(log_tail "$work/as-written.log")"; }
JOB_PID=""
((EXIT_STATUS == 1)) || fail "the job on s3a:// exited with status $EXIT_STATUS, expected 1" "$(log_tail "$work/as-written.log")"
diff -u "$expected/c10_as_written.stderr" <(grep -v '^\[INFO\]' "$work/as-written.log") ||
  fail "the output of the job on s3a:// differs (expected $expected/c10_as_written.stderr)"
[[ ! -e $work/as-written-out ]] || fail "the job on s3a:// wrote into its sink's directory"
echo "C10: as written, the s3a:// directories are refused naming the option"

# 2. On the local disk.
bucket="$work/bucket"
sed "s#s3a://my-bucket#$bucket#g" "$config" >local.yaml
checkpoints="$bucket/flink-checkpoints/$JOB_NAME"
ha_cluster="$bucket/flink-ha/$JOB_NAME/order-analytics-cluster"

run_job local.yaml batch "$work/reference" "$work/reference.log"
wait_until "$JOB_PID" $(($(now_ms) + 120000)) || { kill_now "$JOB_PID"; fail "the BATCH run did not end within 120 s" "$(log_tail "$work/reference.log")"; }
JOB_PID=""
((EXIT_STATUS == 0)) && completed "$work/reference.log" ||
  fail "the BATCH run failed (status $EXIT_STATUS)" "$(log_tail "$work/reference.log")"
committed_lines "$work/reference" | sort >"$work/reference.lines"
reference_count=$(wc -l <"$work/reference.lines")
((reference_count > 0)) || fail "the BATCH run committed nothing"
[[ ! -d $checkpoints && ! -d $bucket/flink-ha/$JOB_NAME/order-analytics-cluster/checkpoints ]] ||
  fail "the BATCH run wrote checkpoints"
echo "C10: reference (BATCH): $reference_count lines"

started_ms=$(now_ms)
run_job local.yaml streaming "$work/out" "$work/attempt-0.log"
first_pid="$JOB_PID"
# A second process of the same cluster is refused while the first holds it.
deadline=$(($(now_ms) + 15000))
until [[ -e $ha_cluster/.lock ]]; do
  if ! alive "$first_pid"; then
    wait "$first_pid"
    fail "the streaming job ended at once (status $?)" "$(log_tail "$work/attempt-0.log")"
  fi
  (($(now_ms) < deadline)) || fail "no high-availability lock appeared in $ha_cluster within 15 s" "$(log_tail "$work/attempt-0.log")"
  sleep 0.05
done
sleep 1  # the first process has taken the lock once its job runs
run_job local.yaml streaming "$work/second-out" "$work/second.log"
SECOND_PID="$JOB_PID" JOB_PID="$first_pid"
wait_until "$SECOND_PID" $(($(now_ms) + 20000)) || fail "a second process of the cluster was not refused within 20 s"
SECOND_PID=""
((EXIT_STATUS == 1)) && grep -q "is the leader of high-availability cluster 'order-analytics-cluster'" "$work/second.log" ||
  fail "a second process of the cluster was not refused on its lock (status $EXIT_STATUS)" "$(log_tail "$work/second.log")"
echo "C10: a second process with cluster id order-analytics-cluster was refused"

# The first checkpoint, one interval after the job started.
deadline=$((started_ms + interval_ms + 20000))
first=""
while [[ -z $first ]]; do
  first=$(find "$checkpoints" -mindepth 3 -maxdepth 3 -name _metadata -path '*/chk-1/*' 2>/dev/null | head -n 1)
  [[ -n $first ]] && break
  alive "$JOB_PID" || fail "the streaming job ended before its first checkpoint" "$(log_tail "$work/attempt-0.log")"
  (($(now_ms) < deadline)) || fail "no complete checkpoint chk-1 under $checkpoints within $(seconds $((deadline - started_ms))) s" "$(log_tail "$work/attempt-0.log")"
  sleep 0.05
done
first_ms=$(($(stat -c %.3Y "$first" | tr -d .)))
after_ms=$((first_ms - started_ms))
((after_ms >= interval_ms)) || fail "chk-1 was complete $(seconds "$after_ms") s after the job started, before the 60 s interval"
# The job's HA record names a checkpoint once it has been stored (just after its _metadata).
deadline=$(($(now_ms) + 10000))
until grep -qs '^checkpoint 1 ' "$ha_cluster"/*.job; do
  (($(now_ms) < deadline)) || fail "no high-availability record named chk-1 within 10 s of its _metadata"
  sleep 0.02
done
kill_now "$JOB_PID"
JOB_PID=""
echo "C10: chk-1 complete one interval after the start (at least 60 s); the process was killed with SIGKILL"
mapfile -t records < <(find "$ha_cluster" -maxdepth 1 -name '*.job')
((${#records[@]} == 1)) || fail "expected one high-availability record in $ha_cluster, found ${#records[@]}"
recorded=$(awk '$1 == "checkpoint" { line = $2 " " $3 } END { print line }' "${records[0]}")
[[ $recorded == "1 $(dirname "$first")" ]] ||
  fail "the high-availability record names '$recorded', expected '1 $(dirname "$first")'"
job_ids=$(find "$checkpoints" -mindepth 1 -maxdepth 1 -type d | wc -l)
((job_ids == 1)) || fail "the killed job's checkpoints are under $job_ids job ids, expected one"
echo "C10: the high-availability record names chk-1"

run_job local.yaml streaming "$work/out" "$work/attempt-1.log"
wait_until "$JOB_PID" $(($(now_ms) + interval_ms + 60000)) || { kill_now "$JOB_PID"; fail "the restarted job did not end in time" "$(log_tail "$work/attempt-1.log")"; }
JOB_PID=""
((EXIT_STATUS == 0)) && completed "$work/attempt-1.log" ||
  fail "the restarted job failed (status $EXIT_STATUS)" "$(log_tail "$work/attempt-1.log")"
committed_lines "$work/out" | sort >"$work/stream.lines"
read -r missing extra < <(multiset_difference "$work/reference.lines" "$work/stream.lines" "$work/missing" "$work/extra")
((missing == 0 && extra == 0)) ||
  fail "the committed lines differ from the reference: $missing missing, $extra extra" \
       "$(head -n 5 "$work/missing" | sed 's/^/  missing: /')" "$(head -n 5 "$work/extra" | sed 's/^/  extra: /')"
[[ -z $(find "$checkpoints" -mindepth 1 -maxdepth 1) ]] ||
  fail "the finished job's checkpoints are still there: $(find "$checkpoints" -mindepth 1 -maxdepth 2 | head -n 3)"
[[ -z $(find "$ha_cluster" -maxdepth 1 -name '*.job') ]] || fail "the finished job's high-availability record is still there"
echo "C10: restarted from chk-1 through high availability; the committed lines equal the reference ($reference_count); the finished job's record and checkpoints are gone"
rm -rf "$work"
echo "C10: passed"
