package io.corgipile.source;

import org.apache.spark.QueryContext;
import org.apache.spark.sql.AnalysisException;
import scala.Option;

/**
 * A table the {@code corgipile} source cannot read, reported on the driver: no Parquet files, a
 * file whose footer or rows cannot be read, files whose schemas conflict. It is Spark's {@link
 * AnalysisException}, as Delta Lake's errors are, so PySpark and Spark Connect clients get it as
 * their own {@code AnalysisException} with the one-line message, not a JVM stack trace.
 *
 * <p>Spark's Scala code throws {@code AnalysisException}, a checked exception to javac, from
 * methods that declare none; {@link #raise} lets this package's Java do the same from Spark's
 * interfaces.
 */
public final class CorgiPileAnalysisException extends AnalysisException {
  private static final long serialVersionUID = 1L;

  private CorgiPileAnalysisException(String message, Throwable cause) {
    super(
        message,
        Option.empty(),
        Option.empty(),
        Option.apply(cause),
        Option.empty(),
        scala.collection.immutable.Map$.MODULE$.empty(),
        new QueryContext[0]);
  }

  /**
   * Spark's own error, said in {@code message}, keeping its condition, parameters and so its
   * SQLSTATE.
   */
  private CorgiPileAnalysisException(String message, AnalysisException spark) {
    super(
        message,
        Option.empty(),
        Option.empty(),
        Option.apply(spark),
        Option.apply(spark.getCondition()),
        spark.messageParameters(),
        new QueryContext[0]);
  }

  /**
   * Throws a {@code CorgiPileAnalysisException}.
   *
   * @return never; declared so that callers write {@code throw raise(...)} and javac sees the end
   */
  public static RuntimeException raise(String message, Throwable cause) {
    throw CorgiPileAnalysisException.<RuntimeException>unchecked(
        new CorgiPileAnalysisException(message, cause));
  }

  /** Throws a {@code CorgiPileAnalysisException} that has no cause. */
  static RuntimeException raise(String message) {
    throw raise(message, (Throwable) null);
  }

  /**
   * Throws Spark's own {@code spark}, which does not say which table, in {@code message}, which
   * does.
   */
  static RuntimeException raise(String message, AnalysisException spark) {
    throw CorgiPileAnalysisException.<RuntimeException>unchecked(
        new CorgiPileAnalysisException(message, spark));
  }

  /** Throws a read error found on the driver as what it is: a table that cannot be read. */
  static RuntimeException raise(CorgiPileReadException e) {
    throw raise(e.getMessage(), e);
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E unchecked(Throwable e) throws E {
    throw (E) e;
  }
}
