package io.corgipile.source;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * The warnings of one table's scans, each said once: Spark plans a new scan for every query of a
 * DataFrame (a fit runs several, a notebook many), and the same advice at each is noise.
 */
final class ScanWarnings {
  private final String table;
  private final Set<String> said = ConcurrentHashMap.newKeySet();

  /**
   * @param table the table's name, as warnings call it
   */
  ScanWarnings(String table) {
    this.table = table;
  }

  String table() {
    return table;
  }

  /** Logs {@code message} unless a warning of this {@code kind} was logged before for the table. */
  void once(Logger log, String kind, String message) {
    if (said.add(kind)) {
      log.warn(message);
    }
  }
}
