"""What makes a pyspark wrapper of an io.corgipile.ml stage: its Java class named explicitly, values
checked by the JVM as they are set, and load that does not guess the Python class from the Java one.
(Its params, their docs and defaults come from the Java stage through the build's catalog: _params.py.)

pyspark's default guess replaces "org.apache.spark" with "pyspark" in the Java class name and
imports the result; for "io.corgipile.ml" that lands in Python's standard "io" module.
"""

from typing import Any

from pyspark.ml.param import Param, TypeConverters
from pyspark.ml.util import JavaMLReader, MLReader
from pyspark.ml.wrapper import JavaModel, JavaWrapper
from pyspark.sql.utils import is_remote


class _Reader(JavaMLReader):
    """Reads through the Java class the wrapper names, not one derived from its module."""

    @classmethod
    def _java_loader_class(cls, clazz) -> str:
        return clazz._java_class


class _RemoteReader(MLReader):
    """Reads on a Spark Connect server through the Java class the wrapper names: pyspark's
    RemoteMLReader derives the name from the Python module instead."""

    def __init__(self, clazz) -> None:
        super().__init__()
        self._clazz = clazz

    def load(self, path: str):
        import pyspark.sql.connect.proto as pb2
        from pyspark.ml.connect.serialize import deserialize, deserialize_param
        from pyspark.ml.util import RemoteModelRef
        from pyspark.sql.connect.session import SparkSession

        is_model = issubclass(self._clazz, JavaModel)
        command = pb2.Command()
        command.ml_command.read.CopyFrom(
            pb2.MlCommand.Read(
                path=path,
                operator=pb2.MlOperator(
                    name=self._clazz._java_class,
                    type=pb2.MlOperator.OPERATOR_TYPE_MODEL if is_model else pb2.MlOperator.OPERATOR_TYPE_ESTIMATOR,
                ),
            )
        )
        _, properties, _ = SparkSession.getActiveSession().client.execute_command(command)
        result = deserialize(properties)
        stage = self._clazz(RemoteModelRef(result.obj_ref.id)) if is_model else self._clazz()
        stage._resetUid(result.uid)
        stage._set(**{name: deserialize_param(value) for name, value in result.params.params.items()})
        return stage


class ConnectUnsupportedError(NotImplementedError):
    """What a stage cannot do in a Spark Connect session."""


def require_classic(what: str) -> None:
    """Fails in a Spark Connect session, before the server would refuse with its own trace."""
    if is_remote():
        raise ConnectUnsupportedError(
            f"Cannot get {what} in a Spark Connect session: the Connect server of Spark 4.2 lets a client"
            " call only the model methods on its allow-list (MLUtils.ALLOWED_ATTRIBUTES), which names MLlib's"
            " own models; load the saved model in a classic session to read it"
        )


class JavaMirror:
    """Mixed in before pyspark's Java wrappers: subclasses set ``_java_class``."""

    _java_class: str

    def _classic_java_obj(self) -> Any:
        """The Java object in this process, or None (not made yet, or it lives on a Spark Connect server)."""
        return None if is_remote() else self._java_obj

    def _set(self, **kwargs: Any):
        """Lets the JVM check each value first, so a bad one fails here with the Java message."""
        java_obj = self._classic_java_obj()
        if java_obj is not None:
            for name, value in kwargs.items():
                param = getattr(self, name)
                if value is None or not java_obj.hasParam(name):
                    continue
                try:
                    converted = param.typeConverter(value)
                except TypeError:
                    continue  # pyspark's _set below says what is wrong with the value
                self._make_java_param_pair(param, converted)  # its ParamPair constructor validates
        return super()._set(**kwargs)

    def _make_java_param_pair(self, param: Param, value: Any) -> Any:
        """Sends column lists as Java String[]: featuresCols is a Param<String[]> without
        StringArrayParam's java.util.List overload, which py4j's list conversion would need."""
        if param.typeConverter is not TypeConverters.toListString:
            return super()._make_java_param_pair(param, value)
        from pyspark import SparkContext

        gateway = SparkContext._gateway
        java_param = self._java_obj.getParam(self._resolveParam(param).name)
        return java_param.w(JavaWrapper._new_java_array(list(value), gateway.jvm.java.lang.String))

    @classmethod
    def read(cls) -> MLReader:
        return _RemoteReader(cls) if is_remote() else _Reader(cls)

    @classmethod
    def _from_java(cls, java_stage: Any):
        """Wraps a Java stage in this class, as JavaParams._from_java does after guessing the class."""
        stage = cls()
        stage._java_obj = java_stage
        if isinstance(stage, JavaModel):
            stage._create_params_from_java()
        stage._resetUid(java_stage.uid())
        stage._transfer_params_from_java()
        return stage
