"""Package layout: the code under slidelab/, and resources/ shipped as slidelab.resources.

Every folder of resources/ is listed as a data package of its own, so that setuptools ships
its files without warning that it would ignore the folder.
"""

from setuptools import find_namespace_packages, find_packages, setup

RESOURCES = "slidelab.resources"

setup(
    packages=[
        *find_packages(include=["slidelab", "slidelab.*"]),
        RESOURCES,
        *(f"{RESOURCES}.{folder}" for folder in find_namespace_packages(where="resources")),
    ],
    package_dir={RESOURCES: "resources"},
)
