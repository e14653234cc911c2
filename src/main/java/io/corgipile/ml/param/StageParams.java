package io.corgipile.ml.param;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;

/**
 * The param objects of one stage, made from its {@link ParamSpec}s, and its uid. Java has no
 * traits, so a stage keeps them in this holder, made once per instance (by {@link PendingParams}),
 * and its params interface returns them from the public methods MLlib finds by reflection.
 */
public final class StageParams implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The uid of the stage these params belong to: the stage's {@code uid()}. */
  public final String uid;

  private final transient List<ParamSpec<?>> specs;
  private final Map<String, Param<?>> params = new LinkedHashMap<>();

  StageParams(String uid, List<ParamSpec<?>> specs) {
    this.uid = uid;
    this.specs = specs;
    for (ParamSpec<?> spec : specs) {
      params.put(spec.name(), spec.create(uid));
    }
  }

  /** The param object {@code spec} declares. */
  public <P extends Param<?>> P get(ParamSpec<?> spec) {
    return get(spec.name());
  }

  /** The param object named {@code name}, declared by one of the stage's specs. */
  @SuppressWarnings("unchecked")
  public <P extends Param<?>> P get(String name) {
    Param<?> param = params.get(name);
    if (param == null) {
      throw new IllegalArgumentException(
          "Cannot find param " + name + " of " + uid + ": it has " + params.keySet());
    }
    return (P) param;
  }

  /** Sets each spec's default on {@code owner}, once it is constructed. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  void setDefaults(Params owner) {
    for (ParamSpec<?> spec : specs) {
      owner.setDefault((Param) params.get(spec.name()), spec.defaultValue());
    }
  }
}
