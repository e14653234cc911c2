package io.corgipile.table.iceberg;

import io.corgipile.table.TableReadException;
import io.corgipile.table.TableSnapshot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.mapping.MappedField;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * An Iceberg schema as Spark's types, as Iceberg's Spark reader converts it (its {@code
 * TypeToSparkType}): a field's name, its nullability (optional), its doc as the field's comment.
 * The files' form of it carries each field's id ({@value #FIELD_ID}), by which Spark's Parquet
 * reader then matches the files' columns, as Iceberg's readers do: a renamed column keeps its id, a
 * dropped and re-added one gets a new one; and, where the table has a name mapping (files added
 * without field ids, as {@code add_files} adds them), the names the mapping gives each id ({@link
 * TableSnapshot#MAPPED_NAMES}), by which such files' columns are matched.
 *
 * <p>Types Spark's Parquet reader cannot read as Iceberg's Spark reader gives them are refused:
 * {@code time}, {@code uuid}, nanosecond timestamps, {@code variant}, geospatial and {@code
 * unknown} types. So are fields with an initial default (Iceberg v3), which a file written before
 * the field was added reads as its default, where Spark's Parquet reader gives null.
 */
final class SparkSchemas {
  /** The field metadata by which Spark's Parquet reader matches a column by its id. */
  static final String FIELD_ID = "parquet.field.id";

  private SparkSchemas() {}

  /** The schema as Spark's reader of the table gives it. */
  static StructType table(String tablePath, Schema schema) {
    return (StructType) convert(tablePath, schema, false);
  }

  /**
   * The same schema, field for field, with each field's id for Spark's Parquet reader, and its
   * names in {@code mapping} where there is one.
   */
  static StructType files(String tablePath, Schema schema, NameMapping mapping) {
    return (StructType) TypeUtil.visit(schema, new Visitor(tablePath, true, mapping));
  }

  private static DataType convert(String tablePath, Schema schema, boolean withIds) {
    return TypeUtil.visit(schema, new Visitor(tablePath, withIds, null));
  }

  private static final class Visitor extends TypeUtil.SchemaVisitor<DataType> {
    private final String tablePath;
    private final boolean withIds;
    private final NameMapping mapping;

    /** The names of the fields above the type being visited, innermost last. */
    private final Deque<String> path = new ArrayDeque<>();

    Visitor(String tablePath, boolean withIds, NameMapping mapping) {
      this.tablePath = tablePath;
      this.withIds = withIds;
      this.mapping = mapping;
    }

    @Override
    public void beforeField(Types.NestedField field) {
      path.addLast(field.name());
    }

    @Override
    public void afterField(Types.NestedField field) {
      path.removeLast();
    }

    @Override
    public DataType schema(Schema schema, DataType struct) {
      return struct;
    }

    @Override
    public DataType struct(Types.StructType struct, List<DataType> fieldTypes) {
      List<StructField> fields = new ArrayList<>();
      for (int i = 0; i < fieldTypes.size(); i++) {
        Types.NestedField field = struct.fields().get(i);
        if (field.initialDefault() != null) {
          throw refused(
              "its column "
                  + column(field.name())
                  + " has an initial default, which the files written before it was added do"
                  + " not hold, and this reader reads them as null");
        }
        Metadata metadata = withIds ? ids(field.fieldId()) : Metadata.empty();
        StructField converted =
            new StructField(field.name(), fieldTypes.get(i), field.isOptional(), metadata);
        fields.add(field.doc() == null ? converted : converted.withComment(field.doc()));
      }
      return new StructType(fields.toArray(new StructField[0]));
    }

    private Metadata ids(int fieldId) {
      MetadataBuilder metadata = new MetadataBuilder().putLong(FIELD_ID, fieldId);
      MappedField mapped = mapping == null ? null : mapping.find(fieldId);
      if (mapped != null) {
        metadata.putStringArray(TableSnapshot.MAPPED_NAMES, mapped.names().toArray(new String[0]));
      }
      return metadata.build();
    }

    @Override
    public DataType field(Types.NestedField field, DataType fieldType) {
      return fieldType;
    }

    @Override
    public DataType list(Types.ListType list, DataType elementType) {
      return ArrayType.apply(elementType, list.isElementOptional());
    }

    @Override
    public DataType map(Types.MapType map, DataType keyType, DataType valueType) {
      return MapType.apply(keyType, valueType, map.isValueOptional());
    }

    @Override
    public DataType variant(Types.VariantType variant) {
      throw unsupported(variant);
    }

    @Override
    public DataType primitive(Type.PrimitiveType primitive) {
      switch (primitive.typeId()) {
        case BOOLEAN:
          return DataTypes.BooleanType;
        case INTEGER:
          return DataTypes.IntegerType;
        case LONG:
          return DataTypes.LongType;
        case FLOAT:
          return DataTypes.FloatType;
        case DOUBLE:
          return DataTypes.DoubleType;
        case DATE:
          return DataTypes.DateType;
        case TIMESTAMP:
          return ((Types.TimestampType) primitive).shouldAdjustToUTC()
              ? DataTypes.TimestampType
              : DataTypes.TimestampNTZType;
        case STRING:
          return DataTypes.StringType;
        case FIXED:
        case BINARY:
          return DataTypes.BinaryType;
        case DECIMAL:
          Types.DecimalType decimal = (Types.DecimalType) primitive;
          return DataTypes.createDecimalType(decimal.precision(), decimal.scale());
        default:
          throw unsupported(primitive);
      }
    }

    private TableReadException unsupported(Type type) {
      return refused(
          "its column "
              + String.join(".", path)
              + " is of type "
              + type
              + ", which Spark's Parquet reader does not read as Iceberg's Spark reader gives it");
    }

    /** {@code name} under the fields above it: a struct's fields are visited after the struct. */
    private String column(String name) {
      List<String> names = new ArrayList<>(path);
      names.add(name);
      return String.join(".", names);
    }

    private TableReadException refused(String reason) {
      return new TableReadException("Cannot read Iceberg table " + tablePath + ": " + reason);
    }
  }
}
