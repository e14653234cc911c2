package io.corgipile.source;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * The Parquet footers a JVM (an executor, or the driver while it plans) read recently, so that
 * every epoch's tasks and every new plan over the same files do not read and parse them again;
 * least recently used footers go first once their estimated size passes the bound.
 *
 * <p>A footer is a fact about one version of one file, whatever table, options or columns a scan
 * reads through it: callers reduce it to their row group and columns after taking it from here. The
 * key holds the file's length and modification time, so a file rewritten in place is a new key and
 * is read again. Footers of encrypted files are never kept: reading them took the reading scan's
 * keys, and the parsed footer carries its decryptor to whoever takes it.
 */
final class FooterCache {
  /**
   * One per JVM, bounded by 1/64 of its heap (16 MiB of a 1 GiB executor: by the estimate below,
   * the footers of about 1,000 row groups of 30 columns).
   */
  static final FooterCache JVM = new FooterCache(Runtime.getRuntime().maxMemory() / 64);

  /**
   * What the in-memory footer costs per column chunk (statistics, encodings, paths) and per field.
   */
  private static final long BYTES_PER_COLUMN_CHUNK = 512;

  private static final long BYTES_PER_FIELD = 256;

  /**
   * One version of a file: the same path rewritten in place has another length or modification
   * time.
   *
   * @param modificationTime milliseconds since the epoch, as the file system reports it
   */
  record Key(String path, long length, long modificationTime) {}

  private record Entry(ParquetMetadata footer, long bytes) {}

  private final long maxBytes;
  private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  FooterCache(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * The footer of {@code key}'s file: kept from an earlier read, else read by {@code read} and kept
   * while the bound allows.
   */
  ParquetMetadata footer(Key key, Supplier<ParquetMetadata> read) {
    synchronized (this) {
      Entry kept = entries.get(key);
      if (kept != null) {
        return kept.footer;
      }
    }
    // Read outside the lock: two tasks that miss the same file at once both read it, rather than
    // every task of the executor waiting behind one slow read.
    ParquetMetadata footer = read.get();
    if (isEncrypted(footer.getFileMetaData())) {
      return footer;
    }
    put(key, footer, estimatedBytes(footer));
    return footer;
  }

  private synchronized void put(Key key, ParquetMetadata footer, long size) {
    if (size > maxBytes) {
      return;
    }
    Entry previous = entries.put(key, new Entry(footer, size));
    bytes += size - (previous == null ? 0 : previous.bytes);
    Iterator<Map.Entry<Key, Entry>> oldestFirst = entries.entrySet().iterator();
    while (bytes > maxBytes) {
      bytes -= oldestFirst.next().getValue().bytes;
      oldestFirst.remove();
    }
  }

  synchronized int size() {
    return entries.size();
  }

  synchronized long bytes() {
    return bytes;
  }

  private static boolean isEncrypted(FileMetaData meta) {
    FileMetaData.EncryptionType type = meta.getEncryptionType();
    return type == FileMetaData.EncryptionType.PLAINTEXT_FOOTER
        || type == FileMetaData.EncryptionType.ENCRYPTED_FOOTER
        || meta.getFileDecryptor() != null;
  }

  /** A rough size of the parsed footer on the heap: its column chunks' metadata dominate it. */
  static long estimatedBytes(ParquetMetadata footer) {
    long chunks = 0;
    for (BlockMetaData block : footer.getBlocks()) {
      chunks += block.getColumns().size();
    }
    return chunks * BYTES_PER_COLUMN_CHUNK
        + footer.getFileMetaData().getSchema().getColumns().size() * BYTES_PER_FIELD;
  }
}
