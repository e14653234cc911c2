"""The params of the io.corgipile.ml stages, declared from the Java stages themselves.

The build writes a catalog of each Java stage's params (params.json beside this module, in the
wheel): io.corgipile.build.PythonParamCatalog (src/build/java) makes the Java stages and reads, through
MLlib's public API, each param's name, whole doc, type and default, and whether the Java class has
its setter. stage_params() turns one stage's entry into a pyspark Params mixin: a Param per param
with the TypeConverter of its type, a getter per param, a setter where Java has one, and the defaults,
set on every instance, so a Spark Connect client knows them too. A param added in Java (its accessor,
default and setter) so reaches Python with no edit here. The params that pyspark's own base classes
declare (featuresCol, labelCol, ...) are not in the catalog: pyspark's wrappers bring them.

The catalog is made at build time, not at import, because a Spark Connect client has no JVM to ask.
It is JSON rather than a generated module because it is data, read once at import: a module would be
generated code to format and check, and the catalog is read by tests and tools as well.
"""

import difflib
import functools
import inspect
import json
from importlib import resources
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from pyspark.ml.param import Param, Params, TypeConverters

# The catalog's types: each one's pyspark converter and the Python type its values have.
_TYPES: Dict[str, tuple] = {
    "int": (TypeConverters.toInt, int),
    "float": (TypeConverters.toFloat, float),
    "bool": (TypeConverters.toBoolean, bool),
    "str": (TypeConverters.toString, str),
    "list[str]": (TypeConverters.toListString, List[str]),
    "list[float]": (TypeConverters.toListFloat, List[float]),
    "list[int]": (TypeConverters.toListInt, List[int]),
}


def _load_catalog() -> Mapping[str, List[Dict[str, Any]]]:
    try:
        text = resources.files(__package__).joinpath("params.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ImportError(
            "Cannot import corgipile.ml: its param catalog corgipile/ml/params.json is missing; the Maven"
            " build writes it (mvn package, into target/generated-python) and scripts/build-wheel puts it in"
            " the wheel: install corgipile from that wheel"
        ) from None
    return json.loads(text)["stages"]


CATALOG = _load_catalog()
"""Each Java stage's params by its class name, as the build read them: name, doc, type, default (when
the stage has one) and setter (whether the Java class has it)."""


def _capitalized(name: str) -> str:
    return name[0].upper() + name[1:]


def _getter(name: str, value_type: Any, doc: str) -> Callable:
    def getter(self):
        return self.getOrDefault(name)

    getter.__name__ = f"get{_capitalized(name)}"
    getter.__doc__ = f"Gets the value of {name} or its default: {doc}."
    getter.__annotations__ = {"return": value_type}
    return getter


def _setter(name: str, value_type: Any, doc: str) -> Callable:
    def setter(self, value):
        return self._set(**{name: value})

    setter.__name__ = f"set{_capitalized(name)}"
    setter.__doc__ = f"Sets the value of {name}: {doc}."
    setter.__annotations__ = {"value": value_type}
    return setter


def stage_params(java_class: str) -> type:
    """The Params mixin of the Java stage ``java_class`` from the catalog: its params, their getters,
    the setters its Java class has, and its defaults, set when an instance is made."""
    try:
        entries = CATALOG[java_class]
    except KeyError:
        raise ImportError(
            f"Cannot declare the params of {java_class}: the param catalog has no such stage (it has"
            f" {', '.join(CATALOG)}); rebuild the wheel after mvn package"
        ) from None
    defaults = {entry["name"]: entry["default"] for entry in entries if "default" in entry}
    mixin_name = f"_{java_class.rsplit('.', 1)[-1]}Params"

    class _StageParams(Params):
        def __init__(self, *args: Any):
            super().__init__(*args)
            self._setDefault(**defaults)

    for entry in entries:
        name, doc = entry["name"], entry["doc"]
        if entry["type"] not in _TYPES:
            raise ImportError(
                f"Cannot declare param {name} of {java_class}: the catalog's type {entry['type']} is none of"
                f" {', '.join(_TYPES)}"
            )
        converter, value_type = _TYPES[entry["type"]]
        methods = [_getter(name, value_type, doc)] + ([_setter(name, value_type, doc)] if entry["setter"] else [])
        setattr(_StageParams, name, Param(Params._dummy(), name, doc, typeConverter=converter))
        for method in methods:
            method.__qualname__ = f"{mixin_name}.{method.__name__}"
            setattr(_StageParams, method.__name__, method)
    _StageParams.__name__ = _StageParams.__qualname__ = mixin_name
    _StageParams.__doc__ = f"The params of {java_class}, from the param catalog the build wrote."
    return _StageParams


_SGDClassifierParams = stage_params("io.corgipile.ml.SGDClassifier")
_SGDClassificationModelParams = stage_params("io.corgipile.ml.SGDClassificationModel")
_SGDRegressorParams = stage_params("io.corgipile.ml.SGDRegressor")
_SGDRegressionModelParams = stage_params("io.corgipile.ml.SGDRegressionModel")
_ScheduledLassoParams = stage_params("io.corgipile.ml.ScheduledLasso")
_ScheduledLassoModelParams = stage_params("io.corgipile.ml.ScheduledLassoModel")


@functools.lru_cache(maxsize=None)
def param_names(cls: type) -> Tuple[str, ...]:
    """The names of the params declared on ``cls``, by the catalog or by pyspark, sorted."""
    return tuple(sorted(name for name in dir(cls) if isinstance(getattr(cls, name, None), Param)))


def check_keywords(stage: Params, method: str, kwargs: Mapping[str, Any]) -> None:
    """Fails as Python does on an unknown keyword argument, naming the params ``stage`` takes."""
    names = param_names(type(stage))
    for keyword in kwargs:
        if keyword not in names:
            close = difflib.get_close_matches(keyword, names, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise TypeError(
                f"{type(stage).__name__}.{method}() got an unexpected keyword argument '{keyword}'{hint};"
                f" it takes the params of {type(stage).__name__}: {', '.join(names)}"
            )


def _value_type(param: Param) -> Any:
    for converter, value_type in _TYPES.values():
        if param.typeConverter is converter:
            return value_type
    return Any


def keyword_params(cls: type) -> type:
    """Gives ``cls.__init__`` and ``cls.setParams``, which take ``**params``, the signature of one
    keyword-only argument per param of ``cls``, for help() and editors (a class decorator)."""
    keywords = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Optional[_value_type(getattr(cls, name))],
        )
        for name in param_names(cls)
    ]
    this = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    vars(cls)["__init__"].__signature__ = inspect.Signature([this, *keywords])
    vars(cls)["setParams"].__signature__ = inspect.Signature([this, *keywords], return_annotation=cls.__name__)
    return cls
