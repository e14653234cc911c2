package io.corgipile.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringStartsWith;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class PhysicalColumnsTest {
  private static final StructType TABLE =
      (StructType)
          DataType.fromDDL(
              "id BIGINT, feature DOUBLE, s STRUCT<alpha: DOUBLE, b: BIGINT>,"
                  + " tags ARRAY<STRUCT<k: STRING>>, m MAP<STRING, STRUCT<v: INT>>");

  /** As Delta names the columns of {@link #TABLE} in its files, ids on two of them. */
  private static final StructType FILES =
      (StructType)
          DataType.fromJson(
              "{\"type\":\"struct\",\"fields\":["
                  + field("col-1", "\"long\"", "{\"parquet.field.id\":1}")
                  + ","
                  + field("col-2", "\"double\"", "{\"parquet.field.id\":2}")
                  + ","
                  + field(
                      "col-3",
                      "{\"type\":\"struct\",\"fields\":["
                          + field("col-4", "\"double\"", "{}")
                          + ","
                          + field("col-5", "\"long\"", "{}")
                          + "]}",
                      "{}")
                  + ","
                  + field(
                      "col-6",
                      "{\"type\":\"array\",\"elementType\":{\"type\":\"struct\",\"fields\":["
                          + field("col-7", "\"string\"", "{}")
                          + "]},\"containsNull\":true}",
                      "{}")
                  + ","
                  + field(
                      "col-8",
                      "{\"type\":\"map\",\"keyType\":\"string\",\"valueType\":{\"type\":\"struct\","
                          + "\"fields\":["
                          + field("col-9", "\"integer\"", "{}")
                          + "]},\"valueContainsNull\":true}",
                      "{}")
                  + "]}");

  private static final PhysicalColumns MAPPED = new PhysicalColumns(TABLE, FILES);

  private static String field(String name, String type, String metadata) {
    return "{\"name\":\""
        + name
        + "\",\"type\":"
        + type
        + ",\"nullable\":true,\"metadata\":"
        + metadata
        + "}";
  }

  @Test
  void aPrunedSchemaIsAskedForByTheFilesNamesAndIds() {
    StructType pruned =
        (StructType)
            DataType.fromDDL(
                "m MAP<STRING, STRUCT<v: INT>>, s STRUCT<b: BIGINT>, feature DOUBLE NOT NULL,"
                    + " tags ARRAY<STRUCT<k: STRING>>");
    StructType physical = MAPPED.physical(pruned);
    assertThat(physical.simpleString())
        .isEqualTo(
            "struct<col-8:map<string,struct<col-9:int>>,col-3:struct<col-5:bigint>,"
                + "col-2:double,col-6:array<struct<col-7:string>>>");
    assertThat(physical.apply("col-2").nullable()).isFalse();
    assertThat(physical.apply("col-2").metadata().getLong("parquet.field.id")).isEqualTo(2);
  }

  @Test
  void withoutAMappingTheSchemaIsAskedForAsItIs() {
    StructType pruned = (StructType) DataType.fromDDL("feature DOUBLE");
    assertThat(new PhysicalColumns(TABLE, TABLE).physical(pruned)).isSameAs(pruned);
    Filter[] filters = {new EqualTo("feature", 1.0)};
    assertThat(new PhysicalColumns(TABLE, TABLE).filters(filters)).isSameAs(filters);
  }

  @Test
  void aColumnTheTableLacksIsAnError() {
    assertThatThrownBy(() -> MAPPED.physical((StructType) DataType.fromDDL("nope INT")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot name column nope as the data files do: the table has none");
  }

  @Test
  void filtersNameTheFilesColumnsNestedOnesQuoted() {
    Filter[] translated =
        MAPPED.filters(
            new Filter[] {
              new GreaterThan("feature", 1.0),
              new In("s.alpha", new Object[] {1.0, 2.0}),
              new Or(new IsNull("id"), new StringStartsWith("tags", "x")),
              new Not(new EqualTo("s.b", 3L))
            });
    assertThat(translated)
        .containsExactly(
            new GreaterThan("`col-2`", 1.0),
            new In("`col-3`.`col-4`", new Object[] {1.0, 2.0}),
            new Or(new IsNull("`col-1`"), new StringStartsWith("`col-6`", "x")),
            new Not(new EqualTo("`col-3`.`col-5`", 3L)));
  }

  /**
   * A filter that cannot be translated is left out, which only keeps more rows: a conjunction keeps
   * its other part, but a disjunction, or a conjunction under a negation, is left out whole.
   */
  @Test
  void whatCannotBeTranslatedIsLeftOutKeepingMoreRows() {
    Filter unknown = new EqualTo("nope", 1);
    Filter known = new EqualTo("id", 1L);
    assertThat(
            MAPPED.filters(
                new Filter[] {
                  unknown,
                  new And(known, unknown),
                  new And(unknown, known),
                  new Or(known, unknown),
                  new Not(new And(known, unknown))
                }))
        .containsExactly(new EqualTo("`col-1`", 1L), new EqualTo("`col-1`", 1L));
  }
}
