package io.corgipile.table.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.SharedSpark;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.source.ReadOptions;
import io.corgipile.table.ShuffledReads;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code load("lake.db.events")} reads a table of an Iceberg catalog the session configures as
 * Iceberg's Spark runtime would ({@code spark.sql.catalog.lake} and its settings), through the
 * Iceberg catalog those settings build. The catalog here is Hadoop's, over {@link IcebergFixtures}'
 * folder: its parent is the warehouse, the folder the namespace.
 */
class IcebergCatalogNamesTest {
  private static final SparkSession SPARK = SharedSpark.get();
  private static final String LAKE = "spark.sql.catalog.lake";

  private static Path tables;
  private static String namespace;

  @BeforeAll
  static void writeTables() throws IOException {
    tables = IcebergFixtures.tables();
    // a temporary folder's name has a dash: quoted, as Spark's SQL names quote it
    namespace = "`" + tables.getFileName() + "`";
  }

  @AfterEach
  void unsetCatalogs() {
    for (String key :
        new String[] {LAKE, LAKE + ".type", LAKE + ".warehouse", "spark.sql.catalog.other"}) {
      SPARK.conf().unset(key);
    }
  }

  private static void hadoopCatalog(String type) {
    SPARK.conf().set(LAKE, "org.apache.iceberg.spark.SparkCatalog");
    SPARK.conf().set(LAKE + ".type", type);
    SPARK.conf().set(LAKE + ".warehouse", tables.getParent().toString());
  }

  /** Blocks of 20 rows, parts of the fixtures' row groups. */
  private static DataFrameReader corgipile(ShuffleMode mode) {
    return ShuffledReads.corgipile(mode, 20);
  }

  private static Table fixture(String name) {
    return new HadoopTables(new Configuration()).load(tables.resolve(name).toString());
  }

  @ParameterizedTest
  @EnumSource(ShuffleMode.class)
  void aNameReadsTheCatalogsTable(ShuffleMode mode) {
    hadoopCatalog("hadoop");
    Table table = fixture(IcebergFixtures.EQUALITY_DELETES);
    assertThat(
            IcebergFixtures.values(
                corgipile(mode).load("lake." + namespace + "." + IcebergFixtures.EQUALITY_DELETES)))
        .containsExactlyInAnyOrderElementsOf(IcebergFixtures.rows(table));
  }

  @Test
  void timeTravelAppliesToANamedTable() {
    hadoopCatalog("hadoop");
    Table refs = fixture(IcebergFixtures.REFS);
    long first = IcebergFixtures.snapshotIds(refs).get(0);
    String name = "lake." + namespace + "." + IcebergFixtures.REFS;
    assertThat(
            IcebergFixtures.values(
                corgipile(ShuffleMode.CORGIPILE).option(ReadOptions.SNAPSHOT_ID, first).load(name)))
        .containsExactlyInAnyOrderElementsOf(IcebergFixtures.rows(refs, first));
    assertThat(
            IcebergFixtures.values(
                corgipile(ShuffleMode.CORGIPILE)
                    .option(ReadOptions.BRANCH, IcebergFixtures.BRANCH)
                    .load(name)))
        .containsExactlyInAnyOrderElementsOf(
            IcebergFixtures.rows(
                refs, refs.snapshot(IcebergFixtures.BRANCH).snapshotId(), refs.schema()));
  }

  @Test
  void aSqlViewReadsANamedTable() {
    hadoopCatalog("hadoop");
    Table deletes = fixture(IcebergFixtures.POSITION_DELETES);
    SPARK.sql(
        "CREATE TEMPORARY VIEW named_posdeletes USING corgipile OPTIONS (path 'lake."
            + namespace
            + "."
            + IcebergFixtures.POSITION_DELETES
            + "')");
    try {
      assertThat(IcebergFixtures.values(SPARK.table("named_posdeletes")))
          .containsExactlyInAnyOrderElementsOf(IcebergFixtures.rows(deletes));
    } finally {
      SPARK.sql("DROP VIEW IF EXISTS named_posdeletes");
    }
  }

  @Test
  void aTableTheCatalogLacksIsNamed() {
    hadoopCatalog("hadoop");
    String name = "lake." + namespace + ".nope";
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load(name))
        .isInstanceOf(AnalysisException.class)
        .hasMessage("Cannot read Iceberg table " + name + ": the catalog lake has no such table");
  }

  @Test
  void aCatalogIcebergCannotBuildIsNamedWithItsSettings() {
    hadoopCatalog("bogus");
    String name = "lake." + namespace + "." + IcebergFixtures.APPENDS;
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load(name))
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read Iceberg table "
                + name
                + ": Iceberg cannot build the catalog lake from its settings"
                + " (spark.sql.catalog.lake.*): java.lang.UnsupportedOperationException: Unknown"
                + " catalog type: bogus");
  }

  @Test
  void aCatalogOtherThanIcebergsIsRefused() {
    SPARK.conf().set("spark.sql.catalog.other", "com.example.OtherCatalog");
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load("other.db.events"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot load corgipile table other.db.events: its catalog other is"
                + " com.example.OtherCatalog, and tables are read by name from Iceberg's catalogs"
                + " only (org.apache.iceberg.spark.SparkCatalog,"
                + " org.apache.iceberg.spark.SparkSessionCatalog); load the table by its path");
  }

  /** A name whose first part is no catalog is a path, relative to the working folder. */
  @Test
  void aNameWithoutACatalogIsAPath() {
    hadoopCatalog("hadoop");
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load("nocatalog.db.events"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("PATH_NOT_FOUND")
        .hasMessageContaining("nocatalog.db.events");
  }
}
