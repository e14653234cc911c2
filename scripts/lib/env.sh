# Shared by the scripts: run Java programs of this project on Spark jars that Maven resolved, so
# they work on a fresh machine without a Spark installation. Source it from the repository root.

export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"

# Spark's Java 17 module flags, kept once in pom.xml (property spark.java.options).
java_flags() {
  sed -n 's:.*<spark.java.options>\(.*\)</spark.java.options>.*:\1:p' pom.xml
}

# The dependency classpath of a Maven scope (compile includes Spark, which is `provided`),
# recomputed only when pom.xml changes.
maven_classpath() {
  local scope="$1" file="target/classpath-$1.txt"
  if [[ ! -s "$file" || pom.xml -nt "$file" ]]; then
    mkdir -p target
    mvn -q -B -Dstyle.color=never dependency:build-classpath -Dmdep.includeScope="$scope" -Dmdep.outputFile="$file" >&2
  fi
  cat "$file"
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
