"""Shared helpers of the Python tests (run by CTest with PYTHONPATH=build/.../python)."""

import os
import tempfile

SOURCE_DIR = os.environ.get("DEM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(SOURCE_DIR, "examples")


def work_dir(name):
    """A fresh directory for a test's files (DEM_TEST_WORK/name, or a temporary one)."""
    base = os.environ.get("DEM_TEST_WORK")
    if not base:
        return tempfile.mkdtemp(prefix="dem-py-" + name + "-")
    path = os.path.join(base, name)
    os.makedirs(path, exist_ok=True)
    for f in os.listdir(path):
        full = os.path.join(path, f)
        if os.path.isfile(full):
            os.remove(full)
    return path
