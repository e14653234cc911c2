package io.corgipile.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.FileStatusWithMetadata;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.PartitionDirectory;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/** Lists a table's files and schema as {@code spark.read().parquet(paths)} does, on the driver. */
public final class FileLister {
  private FileLister() {}

  /**
   * Lists a table's files and schema exactly as {@code spark.read().parquet(paths)} does: same
   * options, globs, recursion, hidden-file rules, partition discovery and schema inference.
   */
  public static FileListing listFiles(
      SparkSession session,
      List<String> paths,
      Map<String, String> options,
      StructType userSchema) {
    DataFrameReader reader = session.read().options(options);
    if (userSchema != null) {
      reader = reader.schema(userSchema);
    }
    Dataset<Row> df = reader.parquet(paths.toArray(new String[0]));
    LogicalPlan plan = ((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().analyzed();
    if (!(plan instanceof LogicalRelation)
        || !(((LogicalRelation) plan).relation() instanceof HadoopFsRelation)) {
      throw new IllegalStateException(
          "Cannot list files of " + paths + ": unexpected plan " + plan);
    }
    HadoopFsRelation relation = (HadoopFsRelation) ((LogicalRelation) plan).relation();
    List<DataFile> files = new ArrayList<>();
    for (PartitionDirectory dir :
        CollectionConverters.asJava(relation.location().listFiles(emptySeq(), emptySeq()))) {
      InternalRow values = dir.values().copy();
      for (FileStatusWithMetadata f : CollectionConverters.asJava(dir.files())) {
        files.add(
            new DataFile(f.getPath().toString(), f.getLen(), f.getModificationTime(), values));
      }
    }
    files.sort(Comparator.comparing(DataFile::path));
    return new FileListing(
        relation.schema(), relation.schema(), relation.partitionSchema(), files, Map.of());
  }

  private static <T> scala.collection.immutable.Seq<T> emptySeq() {
    return CollectionConverters.asScala(new ArrayList<T>()).toSeq();
  }
}
