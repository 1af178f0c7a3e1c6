"""The type stubs name exactly the runtime's public classes and members."""
import ast
import pathlib

import impulse2d
from impulse2d import _impulse2d

STUB = pathlib.Path(impulse2d.__file__).with_name("_impulse2d.pyi")


def stub_classes():
    tree = ast.parse(STUB.read_text())
    classes = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
            classes[node.name] = {n for n in names if not n.startswith("_")}
    return classes


def test_stub_file_is_installed_with_py_typed():
    assert STUB.exists()
    assert STUB.with_name("py.typed").exists()


def test_stubs_match_the_runtime():
    classes = stub_classes()
    runtime = {
        name for name in dir(_impulse2d)
        if isinstance(getattr(_impulse2d, name), type) and not name.startswith("_")
    }
    assert set(classes) == runtime
    for name, members in classes.items():
        cls = getattr(_impulse2d, name)
        actual = {m for m in dir(cls) if not m.startswith("_")}
        if issubclass(cls, BaseException):
            continue
        assert members == actual, name
