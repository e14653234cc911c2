# scripts/bench bandwidth: training time against network bandwidth. Every rate gets a network
# namespace of its own (unshare -rn), whose loopback is limited by a tc token bucket; in it a
# scripts/local-cluster and ScaleBenchmark as a client-mode driver against it. The namespace has
# only its own lo, so the limit touches no other process of the machine and the cluster's ports
# cannot collide with another cluster's. Sourced by scripts/bench after scripts/lib/env.sh.

BANDWIDTH_RATES=unlimited,1000,100,20
# The wide set's 32,768 coefficients make a round's bytes matter; P=8 gives 11 rounds per epoch
BANDWIDTH_SCALE=(--datasets wide --rows 100000 --partitions 8 --sync buffer,epoch --compression none,int8 --epochs 3)
# A fresh namespace has every port free: no need to look for one
BANDWIDTH_MASTER_PORT=7077

bandwidth_fail() {
  echo "scripts/bench bandwidth: $*" >&2
  exit 2
}

# Usage: bandwidth_benchmark [--rates LIST] [--out DIR] [--data DIR] [scale options]
bandwidth_benchmark() {
  local rates="$BANDWIDTH_RATES" out=docs/benchmarks/results/scale-bandwidth data=target/bench-data runs=target/bandwidth
  local rate jar classpath
  local -a all=("$@") scale=()
  while (($#)); do
    case "$1" in
      --rates|--out|--data)
        (($# >= 2)) || bandwidth_fail "Cannot use option $1: it needs a value"
        case "$1" in
          --rates) rates="$2" ;;
          --out) out="$2" ;;
          --data) data="$2" ;;
        esac
        shift 2
        ;;
      *) scale+=("$1"); shift ;;
    esac
  done
  for rate in ${rates//,/ }; do
    [[ "$rate" == unlimited || "$rate" =~ ^[1-9][0-9]*$ ]] \
      || bandwidth_fail "Cannot use rate '$rate': expected unlimited or a whole number of Mbit/s"
  done
  command -v unshare >/dev/null && command -v tc >/dev/null && command -v ip >/dev/null \
    || bandwidth_fail "Cannot limit bandwidth: unshare, tc and ip (util-linux, iproute2) are needed"

  compile_test_classes
  record_provenance "scripts/bench bandwidth" "${all[@]}"
  benchmark_java
  jar="$(project_jar)"
  classpath="$(test_classpath)"
  # scripts/local-cluster reads the cached Spark classpath; Maven must not run in the namespace,
  # which has no network
  spark_classpath >/dev/null
  mkdir -p "$data"
  data="$(cd "$data" && pwd)" # absolute: executors run in the workers' folders
  local -a args=("${BANDWIDTH_SCALE[@]}" "${scale[@]}")
  local -a log=(-Dlog4j2.configurationFile=conf/log4j2.properties)

  "${BENCH_JAVA[@]}" "${log[@]}" -cp "$classpath" io.corgipile.bench.BandwidthBenchmark prepare \
    "${args[@]}" --data "$data"
  rm -rf "$runs"
  for rate in ${rates//,/ }; do
    echo "scripts/bench bandwidth: rate $rate Mbit/s" >&2
    # The driver ships the package's jar to the executors as spark.jars (as scripts/corgipile-submit
    # does); the benchmark's own classes run only on the driver, the data being prepared above.
    unshare -rn bash -c 'set -euo pipefail; source scripts/lib/env.sh; source scripts/lib/bandwidth.sh;
        limited_cluster_run "$@"' bandwidth "$rate" "$PWD/$runs/$rate" \
      "${BENCH_JAVA[@]}" "${log[@]}" -Dspark.master="spark://127.0.0.1:$BANDWIDTH_MASTER_PORT" \
      -Dspark.jars="$jar" -cp "$classpath" io.corgipile.bench.ScaleBenchmark "${args[@]}" --data "$data" \
      --out "$runs/$rate" \
      || bandwidth_fail "Cannot measure at rate $rate: the run in its namespace failed (exit $?; cluster logs in $runs/$rate/cluster/logs)"
  done
  "${BENCH_JAVA[@]}" "${log[@]}" -cp "$classpath" io.corgipile.bench.BandwidthBenchmark report \
    --runs "$runs" --rates "$rates" --out "$out" --scale-args "${args[*]}"
  echo "scripts/bench bandwidth: wrote $out" >&2
}

# Inside the namespace: loopback up at MTU 1500 and limited to RATE Mbit/s (unless unlimited), a
# local cluster of two 1-core workers in DIR/cluster, COMMAND, and the cluster stopped however
# COMMAND ends. Usage: limited_cluster_run RATE DIR COMMAND...
limited_cluster_run() {
  local rate="$1" dir="$2"
  shift 2
  # tbf queues whole packets: at lo's default MTU of 64 KiB a packet outgrows the bucket and TCP stalls
  ip link set lo mtu 1500
  ip link set lo up
  if [[ "$rate" != unlimited ]]; then
    # latency 200ms: the queue holds 200 ms of traffic at the rate (500 KB at 20 Mbit/s, about two
    # executors' float64 deltas of the wide set, 262 KB each, arriving at once). Packets beyond it
    # are dropped, and a loss can cost TCP a retransmission timeout (200 ms at least): at 100 ms a
    # 20 Mbit/s run of P=8, syncInterval=buffer, none dropped 721 of 68,694 packets. The queue
    # fills only when more arrives than the rate drains, so it delays nothing at higher rates.
    tc qdisc add dev lo root tbf rate "${rate}mbit" burst "$(tbf_burst "$rate")" latency 200ms
  fi
  mkdir -p "$dir"
  export CORGIPILE_CLUSTER_DIR="$dir/cluster" CORGIPILE_MASTER_PORT="$BANDWIDTH_MASTER_PORT" \
    CORGIPILE_WORKERS=2 CORGIPILE_WORKER_CORES=1
  # the workers run detached (nohup): without the stop they would outlive the run, and the namespace with them
  trap 'scripts/local-cluster stop' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  scripts/local-cluster start
  # The runs of a rate follow one another, so anything else the machine does between them weighs
  # on the ratios: the report shows the 1-minute load average at the start and the end of each.
  local load_start load_end
  read -r load_start _ </proc/loadavg
  "$@"
  read -r load_end _ </proc/loadavg
  echo "$load_start $load_end" >"$dir/loadavg"
  # what the bucket sent and dropped, for the log: drops would mean the queue is too short
  tc -s qdisc show dev lo >&2
}

# tbf's bucket in bytes for RATE Mbit/s: at least what the rate brings in one kernel timer tick
# (rate / HZ), or the bucket overflows between refills and the link runs below the rate; at least
# one full frame (1,500 bytes and lo's 14-byte header), or tbf drops every full-size packet. No
# more: a bigger bucket lets the start of every transfer through at loopback speed.
tbf_burst() {
  local hz bytes
  hz="$(kernel_hz)"
  bytes=$((($1 * 125000 + hz - 1) / hz))
  echo $((bytes > 1514 ? bytes : 1514))
}

# CONFIG_HZ of the running kernel; 100, the lowest in use, when its configuration is not readable
# (a lower HZ means a bigger bucket, which errs towards reaching the rate).
kernel_hz() {
  local hz
  hz="$({ zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null || true; } \
    | sed -n 's/^CONFIG_HZ=\([0-9][0-9]*\)$/\1/p')"
  echo "${hz:-100}"
}
