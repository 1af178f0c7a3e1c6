"""The package README's and the repository README's Python examples run."""
import pathlib
import re

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


@pytest.mark.parametrize("readme", [HERE.parent / "README.md", HERE.parents[2] / "README.md"])
def test_readme_examples_run(readme, capsys):
    blocks = python_blocks(readme)
    assert blocks, readme
    namespace = {}
    for block in blocks:
        exec(compile(block, str(readme), "exec"), namespace)
