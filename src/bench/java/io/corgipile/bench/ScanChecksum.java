package io.corgipile.bench;

import java.io.Serializable;
import java.util.Collections;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * What one pass over the table saw: row count, a plain double sum and an order-free exact checksum.
 */
final class ScanChecksum implements Serializable {
  private static final long serialVersionUID = 1L;
  long rows;
  double sum;

  /** Wrapping sum of the raw bits of every value: exact and independent of the row order. */
  long bits;

  ScanChecksum merge(ScanChecksum o) {
    ScanChecksum c = new ScanChecksum();
    c.rows = rows + o.rows;
    c.sum = sum + o.sum;
    c.bits = bits + o.bits;
    return c;
  }

  boolean sameRowsAndBits(ScanChecksum o) {
    return rows == o.rows && bits == o.bits;
  }

  String key() {
    return rows + "/" + Long.toHexString(bits);
  }

  /** Reads every column of every row; both paths do exactly this work. */
  static Iterator<ScanChecksum> consume(Iterator<InternalRow> it, int columns) {
    long rows = 0;
    double sum = 0;
    long bits = 0;
    while (it.hasNext()) {
      InternalRow r = it.next();
      for (int i = 0; i < columns; i++) {
        double v = r.getDouble(i);
        sum += v;
        bits += Double.doubleToRawLongBits(v);
      }
      rows++;
    }
    ScanChecksum c = new ScanChecksum();
    c.rows = rows;
    c.sum = sum;
    c.bits = bits;
    return Collections.singletonList(c).iterator();
  }
}
