"""Package layout: the code under slidelab/, and resources/ shipped as slidelab.resources."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["slidelab", "slidelab.*"]), "slidelab.resources"],
    package_dir={"slidelab.resources": "resources"},
)
