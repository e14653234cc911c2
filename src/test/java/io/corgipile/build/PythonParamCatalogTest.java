package io.corgipile.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.JavaParams;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.param.StringArrayParam;
import org.junit.jupiter.api.Test;

/**
 * The catalog the Python params are declared from: a param a Java stage gains reaches it with its
 * doc, type, default and setter, read through MLlib's public API alone, and so needs no Python
 * edit.
 */
public class PythonParamCatalogTest {
  /** A stage as a new Java param would make it: typed params, defaults, setters for some. */
  public static final class Toy extends JavaParams {
    private static final long serialVersionUID = 1L;
    private final String uid = "toy_1";
    private final IntParam newInt = new IntParam(this, "newInt", "an int param added in Java");
    private final LongParam newLong = new LongParam(this, "newLong", "a long param");
    private final DoubleParam newDouble =
        new DoubleParam(this, "newDouble", "a double param without a setter");
    private final BooleanParam newFlag = new BooleanParam(this, "newFlag", "a boolean param");
    private final Param<String> newChoice =
        new Param<>(this, "newChoice", "a string param without a default");
    private final Param<String[]> newColumns =
        new Param<>(uid, "newColumns", "columns", String[].class);
    private final StringArrayParam newNames = new StringArrayParam(this, "newNames", "names");
    private final Param<String> featuresCol =
        new Param<>(this, "featuresCol", "pyspark declares this one");

    public Toy() {
      setDefault(newInt, 3);
      setDefault(newLong, 42L);
      setDefault(newDouble, Double.POSITIVE_INFINITY);
      setDefault(newFlag, true);
      setDefault(newColumns, new String[0]);
      setDefault(newNames, new String[] {"a", "b"});
    }

    public IntParam newInt() {
      return newInt;
    }

    public LongParam newLong() {
      return newLong;
    }

    public DoubleParam newDouble() {
      return newDouble;
    }

    public BooleanParam newFlag() {
      return newFlag;
    }

    public Param<String> newChoice() {
      return newChoice;
    }

    public Param<String[]> newColumns() {
      return newColumns;
    }

    public StringArrayParam newNames() {
      return newNames;
    }

    public Param<String> featuresCol() {
      return featuresCol;
    }

    public Toy setNewInt(int value) {
      set(newInt, value);
      return this;
    }

    public Toy setNewLong(long value) {
      set(newLong, value);
      return this;
    }

    public Toy setNewFlag(boolean value) {
      set(newFlag, value);
      return this;
    }

    public Toy setNewChoice(String value) {
      set(newChoice, value);
      return this;
    }

    public Toy setNewColumns(String... value) {
      set(newColumns, value);
      return this;
    }

    public Toy setNewNames(String[] value) {
      set(newNames, value);
      return this;
    }

    @Override
    public String uid() {
      return uid;
    }

    @Override
    public Params copy(ParamMap extra) {
      return defaultCopy(extra);
    }
  }

  /** A stage with a param whose values Python has no converter for. */
  public static final class Unsupported extends JavaParams {
    private static final long serialVersionUID = 1L;
    private final Param<Map<String, String>> options = new Param<>(this, "options", "a map");

    public Unsupported() {
      setDefault(options, new HashMap<>());
    }

    public Param<Map<String, String>> options() {
      return options;
    }

    @Override
    public String uid() {
      return "unsupported_1";
    }

    @Override
    public Params copy(ParamMap extra) {
      return defaultCopy(extra);
    }
  }

  private static Map<String, Map<String, Object>> byName(List<Map<String, Object>> entries) {
    return entries.stream().collect(Collectors.toMap(e -> (String) e.get("name"), e -> e));
  }

  @Test
  void aNewJavaParamReachesTheCatalogWithItsDocTypeDefaultAndSetter() {
    Map<String, Map<String, Object>> params = byName(PythonParamCatalog.describe(new Toy()));
    assertThat(params)
        .containsOnlyKeys(
            "newInt", "newLong", "newDouble", "newFlag", "newChoice", "newColumns", "newNames");
    assertThat(params.get("newInt"))
        .containsExactly(
            Map.entry("name", "newInt"),
            Map.entry("doc", "an int param added in Java"),
            Map.entry("type", "int"),
            Map.entry("default", 3),
            Map.entry("setter", true));
    assertThat(params.get("newLong")).containsEntry("type", "int").containsEntry("default", 42L);
    assertThat(params.get("newDouble"))
        .containsEntry("type", "float")
        .containsEntry("setter", false);
    assertThat(params.get("newFlag")).containsEntry("type", "bool").containsEntry("default", true);
    assertThat(params.get("newChoice")).containsEntry("type", "str").doesNotContainKey("default");
    assertThat(params.get("newColumns"))
        .containsEntry("type", "list[str]")
        .containsEntry("setter", true);
    assertThat(params.get("newNames")).containsEntry("type", "list[str]");
  }

  @Test
  void aParamPythonCannotConvertFailsTheBuildNamingIt() {
    assertThatThrownBy(() -> PythonParamCatalog.describe(new Unsupported()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Cannot describe param options of "
                + Unsupported.class.getName()
                + " for Python: its values are java.util.HashMap; supported are");
  }

  @Test
  void jsonKeepsNonFiniteDefaultsAsNumbersPythonReads() throws Exception {
    String json =
        PythonParamCatalog.json(
            Map.of("stages", Map.of("toy", PythonParamCatalog.describe(new Toy()))));
    assertThat(json).contains("\"default\" : Infinity");
    JsonNode toy =
        JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build()
            .readTree(json)
            .get("stages")
            .get("toy");
    for (JsonNode param : toy) {
      if (param.get("name").asText().equals("newDouble")) {
        assertThat(param.get("default").doubleValue()).isEqualTo(Double.POSITIVE_INFINITY);
      }
    }
    assertThat(toy).hasSize(7);
  }

  @Test
  void catalogHasEveryParamOfEveryRegisteredStageButPysparksOwn() throws Exception {
    List<String> stages = PythonParamCatalog.stageClasses(Path.of("target/classes"));
    assertThat(stages)
        .contains(
            "io.corgipile.ml.SGDClassifier",
            "io.corgipile.ml.SGDClassificationModel",
            "io.corgipile.ml.SGDRegressor",
            "io.corgipile.ml.SGDRegressionModel",
            "io.corgipile.ml.ScheduledLasso",
            "io.corgipile.ml.ScheduledLassoModel");
    @SuppressWarnings("unchecked")
    Map<String, List<Map<String, Object>>> catalog =
        (Map<String, List<Map<String, Object>>>) PythonParamCatalog.catalog(stages).get("stages");
    assertThat(catalog).containsOnlyKeys(stages);
    for (String name : stages) {
      Params stage = (Params) Class.forName(name).getConstructor().newInstance();
      Set<String> expected = new TreeSet<>();
      for (Param<?> param : stage.params()) {
        expected.add(param.name());
      }
      expected.removeAll(PythonParamCatalog.PYSPARK_PARAMS);
      assertThat(byName(catalog.get(name)).keySet())
          .as(name)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
    assertThat(byName(catalog.get("io.corgipile.ml.SGDClassifier")).get("maxIter"))
        .containsEntry("type", "int")
        .containsEntry("setter", true);
    assertThat(byName(catalog.get("io.corgipile.ml.SGDRegressionModel")).get("maxIter"))
        .containsEntry("setter", false);
  }
}
