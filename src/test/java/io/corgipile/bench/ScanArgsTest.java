package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The scan bench's arguments and the variants each mode measures. */
class ScanArgsTest {
  private static List<String> names(String... argv) {
    return ScanVariant.chosen(ScanArgs.parse(argv)).stream().map(v -> v.name).toList();
  }

  @Test
  void repetitionModeMeasuresEveryReadingWithPlainParquet() {
    assertThat(names())
        .containsExactly("parquet", "none", "block", "window", "corgipile", "corgipile-noprefetch");
    assertThat(names("--variants", "corgipile,block"))
        .containsExactly("parquet", "corgipile", "block");
  }

  @Test
  void epochModeAddsBothFullShufflesAndDropsPlainParquet() {
    assertThat(names("--epochs", "3"))
        .containsExactly("none", "block", "window", "corgipile", "full-shuffle", "shuffled-copy");
    ScanVariant full =
        ScanVariant.chosen(
                ScanArgs.parse(new String[] {"--epochs", "2", "--variants", "full-shuffle"}))
            .get(0);
    assertThat(full.kind).isEqualTo(ScanVariant.Kind.FULL_SHUFFLE);
    assertThat(full.describe()).contains("orderBy(rand(seed + epoch))");
  }

  @Test
  void buffersMeasureTheBaselineAndEachSize() {
    assertThat(names("--buffers", "1%,10%,20%"))
        .containsExactly("parquet", "none", "corgipile-1%", "corgipile-10%", "corgipile-20%");
    ScanVariant ten =
        ScanVariant.chosen(
                ScanArgs.parse(new String[] {"--buffers", "10%", "--option", "bufferSize=64m"}))
            .get(2);
    assertThat(ten.options).containsEntry("bufferSize", "10%").containsEntry("prefetch", "true");
  }

  @Test
  void rowGroupRowsNamesItsOwnTable() {
    ScanArgs plain = ScanArgs.parse(new String[] {"--rows", "1m"});
    assertThat(plain.rowGroupRows).isZero();
    assertThat(ScanTable.tableDir(plain).getFileName().toString())
        .isEqualTo("higgs-like-rows1000000-seed42");
    ScanArgs small =
        ScanArgs.parse(new String[] {"--rows", "1m", "--row-group-rows", "1k", "--epochs", "5"});
    assertThat(small.rowGroupRows).isEqualTo(1000);
    assertThat(small.epochs).isEqualTo(5);
    assertThat(ScanTable.tableDir(small).getFileName().toString())
        .isEqualTo("higgs-like-rows1000000-seed42-rowgroup1000");
    assertThat(ScanTable.rowCountLimit(small)).isEqualTo(", parquet.block.row.count.limit=1000");
  }

  @Test
  void rejectsWithTheOptionAndTheAllowedValues() {
    assertThatThrownBy(() -> ScanArgs.parse(new String[] {"--epochs", "0"}))
        .hasMessageStartingWith("Cannot use --epochs '0': expected");
    assertThatThrownBy(() -> ScanArgs.parse(new String[] {"--buffers", "10%,lots"}))
        .hasMessageStartingWith(
            "Cannot use --buffers 'lots': expected a comma list of buffer sizes, each auto");
    assertThatThrownBy(() -> ScanArgs.parse(new String[] {"--buffers", ","}))
        .hasMessage("Cannot use --buffers ',': expected a comma list of buffer sizes (1%,10%,20%)");
    assertThatThrownBy(() -> ScanArgs.parse(new String[] {"--row-group-rows", "0"}))
        .hasMessage("Cannot use --row-group-rows '0': expected a count (10000000, 10m, 500k) >= 1");
    assertThatThrownBy(() -> ScanArgs.parse(new String[] {"--row-group-rows", "many"}))
        .hasMessageStartingWith("Cannot use --row-group-rows 'many': expected a count");
    assertThatThrownBy(() -> ScanArgs.parse(new String[] {"--memory-limit", "lots"}))
        .hasMessageStartingWith("Cannot use --memory-limit 'lots': expected a size in bytes");
    assertThatThrownBy(
            () -> ScanArgs.parse(new String[] {"--memory-limit", "1g", "--read-limit", "fast"}))
        .hasMessageStartingWith(
            "Cannot use --read-limit 'fast': expected bytes per second per disk");
    assertThatThrownBy(() -> ScanArgs.parse(new String[] {"--read-limit", "100m"}))
        .hasMessage(
            "Cannot use --read-limit without --memory-limit: the table would be read from the page"
                + " cache");
    assertThat(
            ScanArgs.parse(new String[] {"--memory-limit", "1g", "--read-limit", "100m"}).readLimit)
        .isEqualTo("100m");
    assertThatThrownBy(() -> ScanArgs.parse(new String[] {"--variants", "full-shuffle"}))
        .hasMessageStartingWith(
            "Cannot use --variants full-shuffle without --epochs: it is measured per epoch");
    assertThatThrownBy(() -> names("--epochs", "2", "--variants", "sorted"))
        .hasMessage(
            "Cannot use --variants sorted: unknown; known: parquet,none,block,window,corgipile,"
                + "corgipile-noprefetch,full-shuffle,shuffled-copy");
  }
}
