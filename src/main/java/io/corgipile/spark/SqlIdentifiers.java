package io.corgipile.spark;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.parser.ParseException;
import scala.jdk.javaapi.CollectionConverters;

/** Names of tables as Spark's SQL parser reads them: {@code lake.db.events}, {@code `a-b`.c}. */
public final class SqlIdentifiers {
  private SqlIdentifiers() {}

  /** The parts of {@code name} as the session's parser splits it, or empty if it is no name. */
  public static Optional<List<String>> parts(SparkSession session, String name) {
    try {
      return Optional.of(
          CollectionConverters.asJava(
              ScanSettings.classic(session)
                  .sessionState()
                  .sqlParser()
                  .parseMultipartIdentifier(name)));
    } catch (ParseException e) {
      return Optional.empty();
    }
  }
}
