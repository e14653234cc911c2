"""The installed distribution: the jar inside it, and its version against the pom's."""

import filecmp
import os
import re
from importlib import metadata

import pytest

import corgipile


def test_jar_path_is_the_built_jar_inside_the_package(jar):
    path = corgipile.jar_path()
    assert os.path.dirname(os.path.dirname(path)) == os.path.dirname(corgipile.__file__)
    assert os.path.basename(path) == os.path.basename(jar)
    assert filecmp.cmp(path, jar, shallow=False)


def test_version_is_the_poms(repo):
    with open(os.path.join(repo, "pom.xml")) as pom:
        version = re.search(
            r"<artifactId>corgipile-spark_2.13</artifactId>\s*<version>([^<]+)</version>", pom.read()
        ).group(1)
    assert metadata.version("corgipile") == version.replace("-SNAPSHOT", ".dev0")


def test_table_packages_are_the_jars_coordinates(repo):
    with open(os.path.join(repo, "pom.xml")) as pom:
        text = pom.read()
    delta = re.search(r"<delta.version>([^<]+)</delta.version>", text).group(1)
    iceberg = re.search(r"<iceberg.version>([^<]+)</iceberg.version>", text).group(1)
    assert corgipile.table_packages("delta") == (
        f"io.delta:delta-kernel-api:{delta},io.delta:delta-kernel-defaults:{delta}"
    )
    assert corgipile.table_packages("delta", "iceberg") == (
        f"io.delta:delta-kernel-api:{delta},io.delta:delta-kernel-defaults:{delta},"
        f"org.apache.iceberg:iceberg-core:{iceberg},org.apache.iceberg:iceberg-data:{iceberg},"
        f"org.apache.iceberg:iceberg-parquet:{iceberg}"
    )


def test_table_packages_of_an_unknown_format_name_the_known_ones():
    with pytest.raises(ValueError) as raised:
        corgipile.table_packages("hudi")
    assert str(raised.value) == "Cannot name the packages of 'hudi': the formats are delta, iceberg"
