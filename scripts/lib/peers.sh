# scripts/bench peers: corgipile beside the Python loaders that shuffle partially (issue 16). Java
# writes the tables (PeerTables); src/bench/python/peers/run.py installs every loader's pinned
# environment under .venv-peers, runs each loader in a process of its own and writes the report.
# Sourced by scripts/bench after scripts/lib/env.sh.

PEERS_ROWS=1m,11m

# Usage: peers_benchmark [--rows LIST] [--data DIR] [run.py's options]
peers_benchmark() {
  local rows="$PEERS_ROWS" data=target/bench-data count line train test
  local -a all=("$@") rest=() tables=()
  while (($#)); do
    case "$1" in
      --rows|--data)
        if (($# < 2)); then
          echo "scripts/bench peers: Cannot use option $1: it needs a value" >&2
          return 2
        fi
        [[ "$1" == --rows ]] && rows="$2" || data="$2"
        shift 2
        ;;
      *) rest+=("$1"); shift ;;
    esac
  done
  CORGIPILE_JAR="$PWD/$(realpath --relative-to=. "$(project_jar)")"
  export CORGIPILE_JAR
  compile_test_classes
  record_provenance "scripts/bench peers" "${all[@]}"
  benchmark_java
  for count in ${rows//,/ }; do
    train="" test=""
    while IFS= read -r line; do
      case "$line" in
        train=*) train="${line#train=}" ;;
        test=*) test="${line#test=}" ;;
      esac
    done < <("${BENCH_JAVA[@]}" -Dlog4j2.configurationFile=conf/log4j2.properties -cp "$(test_classpath)" \
      io.corgipile.bench.PeerTables "$data" "$count")
    [[ -n "$train" && -n "$test" ]] || { echo "scripts/bench peers: Cannot prepare the $count-row table" >&2; return 2; }
    tables+=(--table "$(sed -n 's/^rows=//p' "$(dirname "$train")/_COMPLETE"):$train:$test")
  done
  PYTHONPATH=src/bench/python python3 -m peers.run "${tables[@]}" "${rest[@]}"
}
