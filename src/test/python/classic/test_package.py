"""The installed distribution: the jar inside it, and its version against the pom's."""

import filecmp
import os
import re
from importlib import metadata

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
