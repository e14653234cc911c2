package io.corgipile.ml.param;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corgipile.shuffle.SyncInterval;
import java.util.List;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;

/**
 * The param objects {@link ParamSpec} makes, whose validation error says what is allowed: MLlib's
 * own message names the param and the value but not the allowed values.
 */
final class CheckedParams {
  private CheckedParams() {}

  /** A string param that takes one of {@code allowed}, listed in its doc. */
  static Param<String> choice(String uid, String name, String doc, List<String> allowed) {
    return new CheckedString(uid, name, doc + ": " + String.join(", ", allowed), allowed);
  }

  /** An int param of at least {@code min}. */
  static IntParam atLeast(String uid, String name, String doc, int min) {
    return new CheckedInt(uid, name, doc, min, "");
  }

  /** As {@link #atLeast(String, String, String, int)}, {@code note} after the bound. */
  static IntParam atLeast(String uid, String name, String doc, int min, String note) {
    return new CheckedInt(uid, name, doc, min, note);
  }

  /**
   * A double param that {@code isValid} accepts, {@code allowed} saying which in words ("in [0,
   * 1]").
   */
  static DoubleParam number(
      String uid,
      String name,
      String doc,
      String allowed,
      scala.Function1<Object, Object> isValid) {
    return new CheckedDouble(uid, name, doc, allowed, isValid);
  }

  /** A {@link SyncInterval}, in {@link SyncInterval#FORMAT}, listed in its doc. */
  static Param<String> syncInterval(String uid, String name, String doc) {
    return new SyncIntervalParam(uid, name, doc);
  }

  private static IllegalArgumentException invalid(Param<?> param, Object value, String allowed) {
    return new IllegalArgumentException(
        "Cannot set param "
            + param.name()
            + " of "
            + param.parent()
            + " to '"
            + value
            + "': allowed values are "
            + allowed);
  }

  private static final class CheckedString extends Param<String> {
    private static final long serialVersionUID = 1L;
    private final List<String> allowed;

    CheckedString(String uid, String name, String doc, List<String> allowed) {
      super(uid, name, doc, ParamValidators.inArray(allowed));
      this.allowed = allowed;
    }

    @Override
    public void validate(String value) {
      if (!allowed.contains(value)) {
        throw invalid(this, value, String.join(", ", allowed));
      }
    }
  }

  /**
   * Column names, saved as MLlib's {@code StringArrayParam} saves them (a JSON array), which cannot
   * be used here: it takes its stage, which does not exist yet when a param holder is made.
   */
  static final class ColumnsParam extends Param<String[]> {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();

    ColumnsParam(String uid, String name, String doc) {
      // The data class is how a Spark Connect server converts a client's value (an array literal).
      super(uid, name, doc, String[].class);
    }

    @Override
    public String jsonEncode(String[] value) {
      try {
        return JSON.writeValueAsString(value);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("Cannot save param " + name() + ": " + e.getMessage(), e);
      }
    }

    @Override
    public String[] jsonDecode(String json) {
      try {
        return JSON.readValue(json, String[].class);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(
            "Cannot load param " + name() + ": not a JSON array of strings: " + json, e);
      }
    }
  }

  private static final class SyncIntervalParam extends Param<String> {
    private static final long serialVersionUID = 1L;

    SyncIntervalParam(String uid, String name, String doc) {
      super(uid, name, doc + ": " + SyncInterval.FORMAT);
    }

    @Override
    public void validate(String value) {
      try {
        SyncInterval.parse(value);
      } catch (IllegalArgumentException e) {
        throw invalid(this, value, SyncInterval.FORMAT);
      }
    }
  }

  private static final class CheckedInt extends IntParam {
    private static final long serialVersionUID = 1L;
    private final int min;
    private final String note;

    CheckedInt(String uid, String name, String doc, int min, String note) {
      super(uid, name, doc + " (>= " + min + note + ")", ParamValidators.gtEq(min));
      this.min = min;
      this.note = note;
    }

    @Override
    public void validate(Object value) {
      if ((Integer) value < min) {
        throw invalid(this, value, "integers >= " + min + note);
      }
    }
  }

  private static final class CheckedDouble extends DoubleParam {
    private static final long serialVersionUID = 1L;
    private final String allowed;

    CheckedDouble(
        String uid,
        String name,
        String doc,
        String allowed,
        scala.Function1<Object, Object> isValid) {
      super(uid, name, doc + " (" + allowed + ")", isValid);
      this.allowed = allowed;
    }

    @Override
    public void validate(Object value) {
      if (!(Boolean) isValid().apply(value)) {
        throw invalid(this, value, "numbers " + allowed);
      }
    }
  }
}
