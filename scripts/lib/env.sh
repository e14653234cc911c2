# Shared by the scripts: run Java programs of this project on Spark jars that Maven resolved, so
# they work on a fresh machine without a Spark installation. Source it from the repository root.

export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"

# Spark's Java 17 module flags, kept once in pom.xml (property spark.java.options).
java_flags() {
  sed -n 's:.*<spark.java.options>\(.*\)</spark.java.options>.*:\1:p' pom.xml
}

# The dependency classpath of a Maven scope (compile includes Spark, which is `provided`), without
# the artifacts of the comma list of group ids EXCLUDE and of artifact ids EXCLUDE_ARTIFACTS if
# given; recomputed only when pom.xml changes.
# Usage: maven_classpath SCOPE [EXCLUDE [EXCLUDE_ARTIFACTS]]
maven_classpath() {
  local scope="$1" exclude="${2:-}" artifacts="${3:-}"
  local file="target/classpath-$1${2:+-without-$2}${3:+-$3}.txt"
  if [[ ! -s "$file" || pom.xml -nt "$file" ]]; then
    mkdir -p target
    mvn -q -B -Dstyle.color=never dependency:build-classpath -DincludeScope="$scope" \
      ${exclude:+-DexcludeGroupIds="$exclude"} ${artifacts:+-DexcludeArtifactIds="$artifacts"} \
      -Dmdep.outputFile="$file" >&2
  fi
  cat "$file"
}

# Spark as a user's installation holds it: the compile scope without the optional libraries of
# table formats (Delta Kernel; Iceberg's jars and the parquet-avro they use), which users add with
# --packages, so the scripts and the integration tests that run on it read Parquet as a user without
# them does.
spark_classpath() {
  maven_classpath compile io.delta,org.apache.iceberg parquet-avro
}

# The package's jar, built when it is missing or older than the sources (as `mvn package` would).
project_jar() {
  local version jar
  version="$(sed -n '/<artifactId>corgipile-spark_2.13<\/artifactId>/{n;s:.*<version>\(.*\)</version>.*:\1:p;q}' pom.xml)"
  jar="target/corgipile-spark_2.13-$version.jar"
  if [[ ! -f "$jar" || -n "$(find src/main pom.xml -newer "$jar" -print -quit)" ]]; then
    mvn -q -B -Dstyle.color=never -DskipTests package >&2
  fi
  echo "$PWD/$jar"
}

# The benchmarks (src/bench/java) and the demo (src/examples/java) are compiled with the tests into
# target/test-classes, so the jar does not carry them; this compiles them and everything they use.
compile_test_classes() {
  mvn -q -B -Dstyle.color=never test-compile >&2
}

# The classpath of the compiled tests, benchmarks and demo, with the test-scope dependencies (JMH, XChart).
test_classpath() {
  echo "target/test-classes:target/classes:$(maven_classpath test)"
}

# Whether -h or --help is among the arguments.
wants_help() {
  local a
  for a in "$@"; do
    case "$a" in
      -h|--help) return 0 ;;
    esac
  done
  return 1
}

# Records in BENCH_COMMAND and BENCH_CODE what produced the figures: the drivers write both into
# their results, so every table says what produced it.
# Usage: record_provenance SCRIPT [ARGUMENT...]   (SCRIPT as the user typed it: scripts/bench)
record_provenance() {
  local script="$1" dirty
  shift
  BENCH_COMMAND="$script${*:+ $*}"
  dirty="$(git status --porcelain -- src/main src/bench pom.xml 2>/dev/null | sed 's/^...//' | paste -sd, - || true)"
  BENCH_CODE="commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)${dirty:+, uncommitted changes in: $dirty}"
  export BENCH_COMMAND BENCH_CODE
}

# Sets the array BENCH_JAVA to the start of a benchmark driver's command line: java with Spark's
# module flags, the heap (BENCH_HEAP) and BENCH_JAVA_OPTS. An array, not a function, so that
# run_benchmark can exec it and scripts/bench bandwidth can pass it into a network namespace.
benchmark_java() {
  # shellcheck disable=SC2206 # the flags and BENCH_JAVA_OPTS are lists of words
  BENCH_JAVA=(java $(java_flags) -Xmx"${BENCH_HEAP:-8g}" ${BENCH_JAVA_OPTS:-})
}

# What scripts/bench and scripts/bench-scan do after their usage text: compile, record what
# produced the figures, and replace this shell with the Java driver.
# Usage: run_benchmark SCRIPT CLASS [JVM_OPTION...] -- [ARGUMENT...]
#   SCRIPT is the command as the user typed it (scripts/bench), CLASS the driver in io.corgipile.bench.
run_benchmark() {
  local script="$1" class="$2"
  local -a jvm=()
  shift 2
  while [[ $# -gt 0 && "$1" != -- ]]; do
    jvm+=("$1")
    shift
  done
  [[ $# -gt 0 ]] && shift
  compile_test_classes
  record_provenance "$script" "$@"
  benchmark_java
  local limit rate
  limit="$(option_argument --memory-limit "$@")" || return 2
  rate="$(option_argument --read-limit "$@")" || return 2
  if [[ -n "$rate" && -z "$limit" ]]; then
    echo "Cannot use option --read-limit without --memory-limit: the table would be read from the page cache" >&2
    return 2
  fi
  if [[ -z "$limit" ]]; then
    exec "${BENCH_JAVA[@]}" "${jvm[@]}" -cp "$(test_classpath)" "io.corgipile.bench.$class" "$@"
  fi
  if [[ "$class" == ScanBenchmark ]]; then
    # the table is generated (or found) outside the limit; only the measurement runs in it
    "${BENCH_JAVA[@]}" "${jvm[@]}" -cp "$(test_classpath)" "io.corgipile.bench.$class" "$@" --generate-only
  fi
  # G1 as without a limit: in a cgroup under 2 GiB the JVM would pick the serial collector itself
  run_in_memory_cgroup "$limit" "$rate" "${BENCH_JAVA[@]}" -XX:+UseG1GC "${jvm[@]}" -cp "$(test_classpath)" \
    "io.corgipile.bench.$class" "$@"
}

# Prints the value of option NAME (--memory-limit, --read-limit) among the arguments (NAME VALUE or
# NAME=VALUE), nothing when absent; fails with a message when it has no value.
# Usage: option_argument NAME ARGUMENT...
option_argument() {
  local name="$1" a value=""
  shift
  while [[ $# -gt 0 ]]; do
    a="$1"
    shift
    case "$a" in
      "$name"=*) value="${a#"$name"=}" ;;
      "$name")
        if [[ $# -eq 0 || "$1" == --* ]]; then
          echo "Cannot use option $name: it needs a value (a size, e.g. 1g)" >&2
          return 2
        fi
        value="$1"
        shift
        ;;
    esac
  done
  echo "$value"
}

# Runs a command in a new memory cgroup of LIMIT bytes (768m, 1g: see MemoryCgroup) that it enters
# before it starts, so everything it allocates and every page of page cache it brings in is charged to
# the cgroup; with RATE (100m: see ReadLimit; empty for none) its reads from every disk are capped at
# RATE bytes/s. Removes the cgroups afterwards. Needs root and a memory controller (cgroup v1 or v2).
# BENCH_CGROUP tells the command where it runs. Usage: run_in_memory_cgroup LIMIT RATE COMMAND...
run_in_memory_cgroup() {
  local limit="$1" rate="$2" created status=0 d
  local -a cgroups
  shift 2
  created="$(java -cp "$(test_classpath)" io.corgipile.bench.MemoryCgroup create "$limit" \
    "corgipile-bench-$$" ${rate:+"$rate"})" || return 2
  mapfile -t cgroups <<< "$created"
  echo "[bench] running in memory cgroup ${cgroups[0]} (limit $limit${rate:+, reads capped at $rate/s per disk})" >&2
  # the child shell joins the cgroups (memory; blkio on cgroup v1), then becomes the command: nothing of
  # it starts outside
  BENCH_CGROUP="${cgroups[0]}" bash -c 'for d in "${@:1:$0}"; do echo $$ > "$d/cgroup.procs" || exit 2; done
    shift "$0"; exec "$@"' "${#cgroups[@]}" "${cgroups[@]}" "$@" || status=$?
  for d in "${cgroups[@]}"; do
    rmdir "$d" 2>/dev/null || echo "[bench] could not remove $d (processes left in it?)" >&2
  done
  return "$status"
}
