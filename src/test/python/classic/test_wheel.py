"""The wheel as a user installs it: a fresh virtual environment, nothing in it but what
`pip install pyspark==<the pom's Spark> <wheel>` brings, then a model fitted through format("corgipile")
with the jar the wheel carries."""

import json
import os
import re
import subprocess
import venv

FIT = """
import sys
import corgipile
from corgipile.ml import SGDClassifier
from pyspark.sql import SparkSession

spark = (SparkSession.builder.master("local[2]").config("spark.jars", corgipile.jar_path())
         .config("spark.ui.enabled", "false").getOrCreate())
rows = [(float(i % 2), (2.0 if i % 2 else -2.0) + (i % 7) / 7.0) for i in range(400)]
spark.createDataFrame(rows, ["label", "x"]).write.parquet(sys.argv[1])
model = SGDClassifier(featuresCols=["x"], maxIter=3).fit(spark.read.format("corgipile").load(sys.argv[1]))
print("coefficient", model.coefficients[0])
spark.stop()
"""


def _spark_version(repo):
    with open(os.path.join(repo, "pom.xml")) as pom:
        return re.search(r"<spark.version>([^<]+)</spark.version>", pom.read()).group(1)


def _bare_environment():
    """This process's environment without what would let the venv see other Pythons' packages or Sparks."""
    drop = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "SPARK_HOME", "PYSPARK_PYTHON", "PYSPARK_SUBMIT_ARGS"}
    return {k: v for k, v in os.environ.items() if k not in drop} | {"SPARK_LOCAL_IP": "127.0.0.1"}


def _installed(python, env):
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format=json"], env=env, capture_output=True, text=True, check=True
    )
    return {p["name"].lower() for p in json.loads(listed.stdout)}


def test_installs_with_pyspark_alone_and_fits(repo, wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)  # no system site packages
    python = str(env_dir / "bin" / "python")
    env = _bare_environment()
    before = _installed(python, env)
    install = subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            f"pyspark=={_spark_version(repo)}",
            wheel,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert install.returncode == 0, install.stdout + install.stderr

    script = tmp_path / "fit.py"
    script.write_text(FIT)
    fit = subprocess.run(
        [python, str(script), str(tmp_path / "table")],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert fit.returncode == 0, fit.stdout + fit.stderr[-4000:]
    coefficient = float(re.search(r"^coefficient (\S+)$", fit.stdout, re.M).group(1))
    assert coefficient > 0  # label 1 where x > 0

    assert sorted(_installed(python, env) - before) == ["corgipile", "numpy", "py4j", "pyspark"]
