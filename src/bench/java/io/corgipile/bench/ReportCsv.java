package io.corgipile.bench;

import static io.corgipile.bench.BenchReport.writeString;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One CSV per experiment: the record's field names, then one line per record. Numbers are written
 * with {@code Double.toString}/{@code Long.toString}, so they parse back exactly, NaN as {@code
 * NaN}.
 */
final class ReportCsv {
  private static final RecordComponent[] FIELDS = EpochRecord.class.getRecordComponents();

  /** CSVs written before issue 13 lack storageBytesRead and peakBufferBytes. */
  private static final int OLD_FIELDS = 13;

  private ReportCsv() {}

  /** Writes the files and returns their names. */
  static List<String> write(Path dir, List<EpochRecord> records) throws IOException {
    Map<String, List<EpochRecord>> byExperiment =
        records.stream()
            .collect(
                Collectors.groupingBy(
                    EpochRecord::experiment, LinkedHashMap::new, Collectors.toList()));
    List<String> files = new ArrayList<>();
    for (Map.Entry<String, List<EpochRecord>> e : byExperiment.entrySet()) {
      String file = e.getKey() + ".csv";
      writeString(dir.resolve(file), csv(e.getValue()));
      files.add(file);
    }
    return files;
  }

  static String csv(List<EpochRecord> records) {
    StringBuilder s = new StringBuilder();
    s.append(Arrays.stream(FIELDS).map(RecordComponent::getName).collect(Collectors.joining(",")))
        .append('\n');
    for (EpochRecord r : records) {
      s.append(Arrays.stream(FIELDS).map(f -> field(value(f, r))).collect(Collectors.joining(",")))
          .append('\n');
    }
    return s.toString();
  }

  private static Object value(RecordComponent field, EpochRecord r) {
    try {
      return field.getAccessor().invoke(r);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + field.getName() + " of " + r, e);
    }
  }

  /** The records of a file {@link #csv} wrote, in its order. */
  static List<EpochRecord> read(Path file) throws IOException {
    List<List<String>> rows = rows(Files.readString(file, StandardCharsets.UTF_8));
    List<EpochRecord> records = new ArrayList<>();
    for (List<String> f : rows.subList(Math.min(1, rows.size()), rows.size())) {
      if (f.size() != FIELDS.length && f.size() != OLD_FIELDS) {
        throw new IOException(
            "Cannot read "
                + file
                + ": a line has "
                + f.size()
                + " fields, not "
                + FIELDS.length
                + " (or "
                + OLD_FIELDS
                + ", written before issue 13): "
                + f);
      }
      boolean old = f.size() == OLD_FIELDS;
      records.add(
          new EpochRecord(
              f.get(0),
              f.get(1),
              f.get(2),
              Double.parseDouble(f.get(3)),
              Integer.parseInt(f.get(4)),
              Double.parseDouble(f.get(5)),
              Double.parseDouble(f.get(6)),
              Double.parseDouble(f.get(7)),
              Double.parseDouble(f.get(8)),
              Double.parseDouble(f.get(9)),
              Long.parseLong(f.get(10)),
              Double.parseDouble(f.get(11)),
              Long.parseLong(f.get(12)),
              old ? -1 : Long.parseLong(f.get(13)),
              old ? -1 : Long.parseLong(f.get(14))));
    }
    return records;
  }

  /** RFC 4180 text as rows of fields: quoted fields may hold commas, quotes and line breaks. */
  private static List<List<String>> rows(String text) {
    List<List<String>> rows = new ArrayList<>();
    List<String> row = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted && c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
        field.append('"');
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        row.add(field.toString());
        field.setLength(0);
      } else if (c == '\n' && !quoted) {
        row.add(field.toString());
        field.setLength(0);
        rows.add(row);
        row = new ArrayList<>();
      } else {
        field.append(c);
      }
    }
    if (!row.isEmpty() || field.length() > 0) { // a last line without its line break: a cut file
      row.add(field.toString());
      rows.add(row);
    }
    return rows;
  }

  /** Strings are quoted (RFC 4180) only when they hold a comma, a quote or a line break. */
  static String field(Object value) {
    String s = String.valueOf(value); // Double.toString, Integer.toString, Long.toString
    if (!(value instanceof String)
        || s.chars().noneMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r')) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }
}
