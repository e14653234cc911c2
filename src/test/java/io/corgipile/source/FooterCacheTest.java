package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * The footer cache serves a footer only for the same version of the same file, within its bound.
 */
class FooterCacheTest {
  private final AtomicInteger reads = new AtomicInteger();

  /**
   * A footer of {@code fields} double columns and no row groups, read once per call of the
   * supplier.
   */
  private Supplier<ParquetMetadata> footer(int fields) {
    return () -> {
      reads.incrementAndGet();
      List<Type> columns = new ArrayList<>();
      for (int i = 0; i < fields; i++) {
        columns.add(Types.optional(PrimitiveType.PrimitiveTypeName.DOUBLE).named("f" + i));
      }
      return new ParquetMetadata(
          new FileMetaData(new MessageType("table", columns), Map.of(), "test"),
          List.<BlockMetaData>of());
    };
  }

  @Test
  void aFileReadAgainUnchangedIsServedWithoutReadingIt() {
    FooterCache cache = new FooterCache(1 << 20);
    FooterCache.Key key = new FooterCache.Key("/t/a.parquet", 1000, 5);
    ParquetMetadata first = cache.footer(key, footer(3));
    ParquetMetadata second = cache.footer(new FooterCache.Key("/t/a.parquet", 1000, 5), footer(3));
    assertThat(second).isSameAs(first);
    assertThat(reads).hasValue(1);
  }

  @Test
  void anotherPathLengthOrModificationTimeIsAnotherFile() {
    FooterCache cache = new FooterCache(1 << 20);
    ParquetMetadata original =
        cache.footer(new FooterCache.Key("/t/a.parquet", 1000, 5), footer(3));
    // the same name in another table, and the same file rewritten in place: longer, or as long but
    // later
    for (FooterCache.Key other :
        List.of(
            new FooterCache.Key("/u/a.parquet", 1000, 5),
            new FooterCache.Key("/t/a.parquet", 1200, 5),
            new FooterCache.Key("/t/a.parquet", 1000, 6))) {
      assertThat(cache.footer(other, footer(4))).isNotSameAs(original);
    }
    assertThat(reads).hasValue(4);
    assertThat(cache.size()).isEqualTo(4);
  }

  @Test
  void leastRecentlyUsedFootersGoFirstOnceTheBoundIsPassed() {
    long one = FooterCache.estimatedBytes(footer(10).get());
    FooterCache cache = new FooterCache(3 * one);
    FooterCache.Key a = new FooterCache.Key("/a", 1, 1);
    FooterCache.Key b = new FooterCache.Key("/b", 1, 1);
    FooterCache.Key c = new FooterCache.Key("/c", 1, 1);
    FooterCache.Key d = new FooterCache.Key("/d", 1, 1);
    cache.footer(a, footer(10));
    cache.footer(b, footer(10));
    cache.footer(c, footer(10));
    cache.footer(a, footer(10)); // a is now more recent than b
    cache.footer(d, footer(10)); // evicts b
    assertThat(cache.size()).isEqualTo(3);
    assertThat(cache.bytes()).isLessThanOrEqualTo(3 * one);
    reads.set(0);
    cache.footer(a, footer(10));
    cache.footer(c, footer(10));
    cache.footer(d, footer(10));
    assertThat(reads).hasValue(0);
    cache.footer(b, footer(10));
    assertThat(reads).hasValue(1);
  }

  @Test
  void aFooterLargerThanTheWholeBoundIsReadEveryTime() {
    FooterCache cache = new FooterCache(FooterCache.estimatedBytes(footer(10).get()) - 1);
    FooterCache.Key key = new FooterCache.Key("/big", 1, 1);
    reads.set(0);
    cache.footer(key, footer(10));
    cache.footer(key, footer(10));
    assertThat(reads).hasValue(2);
    assertThat(cache.size()).isZero();
  }

  @Test
  void footersOfEncryptedFilesAreNotKept() {
    FooterCache cache = new FooterCache(1 << 20);
    FooterCache.Key key = new FooterCache.Key("/secret", 1, 1);
    Supplier<ParquetMetadata> encrypted =
        () -> {
          reads.incrementAndGet();
          return new ParquetMetadata(
              new FileMetaData(
                  new MessageType("table", List.of()),
                  Map.of(),
                  "test",
                  FileMetaData.EncryptionType.PLAINTEXT_FOOTER,
                  null),
              List.<BlockMetaData>of());
        };
    cache.footer(key, encrypted);
    cache.footer(key, encrypted);
    assertThat(reads).hasValue(2);
    assertThat(cache.size()).isZero();
  }
}
