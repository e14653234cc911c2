package io.corgipile.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.util.QuotingUtils;
import org.apache.spark.sql.sources.AlwaysFalse;
import org.apache.spark.sql.sources.AlwaysTrue;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringContains;
import org.apache.spark.sql.sources.StringEndsWith;
import org.apache.spark.sql.sources.StringStartsWith;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A table's columns as its data files name them. Under a table format's column mapping (Delta's
 * {@code delta.columnMapping.mode}) a column's name in the files is a physical name of its own, or
 * the files are matched by Parquet field id, so a rename or a dropped and re-added column changes
 * no file. Spark's Parquet reader is then asked for the physical columns, and the filters pushed
 * into it name them; it returns them in the order asked for, which the scan's output names as the
 * table does. Without a mapping the files' names are the table's.
 */
public final class PhysicalColumns {
  private final StructType table;
  private final StructType files;

  /** Whether the files name any column otherwise than the table. */
  private final boolean mapped;

  /** Quoted logical column paths (of nested struct fields too) to quoted physical ones. */
  private final Map<String, String> filterNames = new HashMap<>();

  /**
   * @param table the table's schema
   * @param files the same schema, field for field, as the files name it
   */
  PhysicalColumns(StructType table, StructType files) {
    this.table = table;
    this.files = files;
    this.mapped = !table.equals(files);
    if (mapped) {
      addFilterNames(table, files, List.of(), List.of());
    }
  }

  public static PhysicalColumns of(FileListing listing) {
    return new PhysicalColumns(listing.schema(), listing.fileSchema());
  }

  /**
   * {@code pruned}, a subset of the table's schema (columns, nested fields pruned away), as the
   * files name it: each field's physical name and metadata (a Parquet field id), its type and
   * nullability as asked.
   */
  StructType physical(StructType pruned) {
    return mapped ? physical(pruned, table, files) : pruned;
  }

  /**
   * The filters on the table's columns as filters on the files' columns, for Parquet's statistics;
   * a filter naming a column without a physical name is left out, and a conjunction keeps the part
   * that translates, so the result never keeps fewer rows than the filters.
   */
  public Filter[] filters(Filter[] pushed) {
    if (!mapped) {
      return pushed;
    }
    List<Filter> translated = new ArrayList<>();
    for (Filter f : pushed) {
      Filter t = translate(f, false);
      if (t != null) {
        translated.add(t);
      }
    }
    return translated.toArray(new Filter[0]);
  }

  private static StructType physical(StructType pruned, StructType table, StructType files) {
    StructField[] fields = new StructField[pruned.size()];
    for (int i = 0; i < fields.length; i++) {
      StructField wanted = pruned.fields()[i];
      int at = Arrays.asList(table.fieldNames()).indexOf(wanted.name());
      if (at < 0) {
        throw new IllegalStateException(
            "Cannot name column " + wanted.name() + " as the data files do: the table has none");
      }
      StructField file = files.fields()[at];
      fields[i] =
          new StructField(
              file.name(),
              physical(wanted.dataType(), table.fields()[at].dataType(), file.dataType()),
              wanted.nullable(),
              file.metadata());
    }
    return new StructType(fields);
  }

  private static DataType physical(DataType pruned, DataType table, DataType files) {
    if (pruned instanceof StructType p) {
      return physical(p, (StructType) table, (StructType) files);
    }
    if (pruned instanceof ArrayType p) {
      return new ArrayType(
          physical(
              p.elementType(),
              ((ArrayType) table).elementType(),
              ((ArrayType) files).elementType()),
          p.containsNull());
    }
    if (pruned instanceof MapType p) {
      return new MapType(
          physical(p.keyType(), ((MapType) table).keyType(), ((MapType) files).keyType()),
          physical(p.valueType(), ((MapType) table).valueType(), ((MapType) files).valueType()),
          p.valueContainsNull());
    }
    return pruned;
  }

  /** Names of struct fields at every depth, as Spark names the columns of pushed filters. */
  private void addFilterNames(
      StructType table, StructType files, List<String> logical, List<String> physical) {
    for (int i = 0; i < table.size(); i++) {
      List<String> l = append(logical, table.fields()[i].name());
      List<String> p = append(physical, files.fields()[i].name());
      filterNames.put(
          QuotingUtils.quoted(l.toArray(new String[0])),
          QuotingUtils.quoted(p.toArray(new String[0])));
      if (table.fields()[i].dataType() instanceof StructType t) {
        addFilterNames(t, (StructType) files.fields()[i].dataType(), l, p);
      }
    }
  }

  private static List<String> append(List<String> path, String name) {
    List<String> longer = new ArrayList<>(path);
    longer.add(name);
    return longer;
  }

  /**
   * {@code f} on the files' columns, or null. Unless {@code exact}, a conjunction may lose a part
   * (keeping more rows); under a negation every part must translate, since a weaker filter negated
   * keeps fewer rows.
   */
  private Filter translate(Filter f, boolean exact) {
    if (f instanceof And a) {
      Filter left = translate(a.left(), exact);
      Filter right = translate(a.right(), exact);
      if (left != null && right != null) {
        return new And(left, right);
      }
      return exact ? null : left != null ? left : right;
    }
    if (f instanceof Or o) {
      Filter left = translate(o.left(), exact);
      Filter right = translate(o.right(), exact);
      return left != null && right != null ? new Or(left, right) : null;
    }
    if (f instanceof Not n) {
      Filter child = translate(n.child(), true);
      return child == null ? null : new Not(child);
    }
    if (f instanceof AlwaysTrue || f instanceof AlwaysFalse) {
      return f;
    }
    String[] references = f.references();
    if (references.length != 1 || !filterNames.containsKey(references[0])) {
      return null;
    }
    String column = filterNames.get(references[0]);
    if (f instanceof EqualTo e) {
      return new EqualTo(column, e.value());
    }
    if (f instanceof EqualNullSafe e) {
      return new EqualNullSafe(column, e.value());
    }
    if (f instanceof GreaterThan g) {
      return new GreaterThan(column, g.value());
    }
    if (f instanceof GreaterThanOrEqual g) {
      return new GreaterThanOrEqual(column, g.value());
    }
    if (f instanceof LessThan l) {
      return new LessThan(column, l.value());
    }
    if (f instanceof LessThanOrEqual l) {
      return new LessThanOrEqual(column, l.value());
    }
    if (f instanceof In in) {
      return new In(column, in.values());
    }
    if (f instanceof IsNull) {
      return new IsNull(column);
    }
    if (f instanceof IsNotNull) {
      return new IsNotNull(column);
    }
    if (f instanceof StringStartsWith s) {
      return new StringStartsWith(column, s.value());
    }
    if (f instanceof StringEndsWith s) {
      return new StringEndsWith(column, s.value());
    }
    if (f instanceof StringContains s) {
      return new StringContains(column, s.value());
    }
    return null;
  }
}
