"""The package README's and the repository README's Python examples run."""
import importlib.util
import pathlib
import re

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


def missing_imports(code):
    """Top-level modules the code imports that are not installed (e.g. gymnasium)."""
    names = re.findall(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", code, flags=re.M)
    return sorted({n for n in names if importlib.util.find_spec(n) is None})


@pytest.mark.parametrize("readme", [HERE.parent / "README.md", HERE.parents[2] / "README.md"])
def test_readme_examples_run(readme):
    blocks = python_blocks(readme)
    assert blocks, readme
    namespace = {}
    skipped = set()
    for block in blocks:
        missing = missing_imports(block)
        if missing:  # e.g. ray (scripts/ray-test.sh): run the other examples
            skipped.update(missing)
            continue
        exec(compile(block, str(readme), "exec"), namespace)
    if skipped:
        pytest.skip(f"{readme.name}: examples that need {sorted(skipped)} (not installed) were skipped")
