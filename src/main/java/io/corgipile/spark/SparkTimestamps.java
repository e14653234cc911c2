package io.corgipile.spark;

import java.time.ZoneId;
import java.util.OptionalLong;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.unsafe.types.UTF8String;
import scala.Option;

/** Strings read as timestamps the way Spark's cast reads them. */
public final class SparkTimestamps {
  private SparkTimestamps() {}

  /**
   * {@code text} as {@code CAST(text AS TIMESTAMP)} reads it in {@code zone} (a date, a timestamp
   * with or without seconds, fraction, {@code T}, offset or zone name): milliseconds since the
   * epoch, rounded down; empty where the cast gives null.
   */
  public static OptionalLong millis(String text, ZoneId zone) {
    Option<Object> micros = DateTimeUtils.stringToTimestamp(UTF8String.fromString(text), zone);
    return micros.isDefined()
        ? OptionalLong.of(Math.floorDiv((Long) micros.get(), 1000L))
        : OptionalLong.empty();
  }
}
