package io.corgipile;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * The messages one logger emits while open, by level. Open in {@code @BeforeEach}, close in
 * {@code @AfterEach}.
 */
public final class LogCapture implements AutoCloseable {
  private final String appenderName = "capture-" + System.identityHashCode(this);
  private final List<LogEvent> events = new CopyOnWriteArrayList<>();
  private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
  private final LoggerConfig config;
  private final AbstractAppender appender;

  public LogCapture(Class<?> logger) {
    this(logger.getName());
  }

  public LogCapture(String loggerName) {
    config = context.getConfiguration().getLoggerConfig(loggerName);
    appender =
        new AbstractAppender(appenderName, null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            if (event.getLoggerName().equals(loggerName)) {
              events.add(event.toImmutable());
            }
          }
        };
    appender.start();
    config.addAppender(appender, Level.ALL, null);
    context.updateLoggers();
  }

  /** The formatted messages logged at exactly {@code level}, in order. */
  public List<String> messages(Level level) {
    return events.stream()
        .filter(e -> e.getLevel() == level)
        .map(e -> e.getMessage().getFormattedMessage())
        .toList();
  }

  public void clear() {
    events.clear();
  }

  @Override
  public void close() {
    config.removeAppender(appenderName);
    appender.stop();
    context.updateLoggers();
  }
}
