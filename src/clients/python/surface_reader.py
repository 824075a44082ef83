"""Reads the public surface of the generated Python package with Python's own ``ast``.

Run by src/clients/python/surface-reader.ts as ``python3 surface_reader.py <package folder>``;
prints the surface as JSON. Nothing is imported or run: the files are parsed, so reading a package
needs no virtual environment and cannot be changed by what the package does when it loads.

A caller of the package sees the names its ``__init__.py`` lists in ``__all__`` (or, without one,
every name there not starting with an underscore). Each is followed through the package's relative
imports to where it is defined and described: a class's bases and every ancestor, its public
methods (the constructor included, with what the package's own base classes give it), each
parameter's name, kind, annotation and default, its properties and public attributes; a
TypedDict's keys with whether each is required and its type; a function's parameters; a value's
declared type.
"""

import ast
import json
import os
import sys
from typing import Any, Dict, List, Optional, Tuple

Json = Dict[str, Any]

_TYPED_DICT_NAMES = {"TypedDict", "typing.TypedDict", "typing_extensions.TypedDict"}


class Module:
    def __init__(self, name: str, tree: ast.Module) -> None:
        self.name = name
        self.definitions: Dict[str, ast.stmt] = {}
        # A name imported from a module of the package: (module, its name there).
        self.imports: Dict[str, Tuple[str, str]] = {}
        self.exported: Optional[List[str]] = None
        for node in tree.body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                self.definitions[node.name] = node
            elif isinstance(node, ast.ImportFrom) and node.level == 1:
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = (node.module or "__init__", alias.name)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.definitions[target.id] = node
                        if target.id == "__all__" and isinstance(node.value, (ast.List, ast.Tuple)):
                            self.exported = [str(ast.literal_eval(item)) for item in node.value.elts]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                self.definitions[node.target.id] = node


class Package:
    def __init__(self, folder: str) -> None:
        self.modules: Dict[str, Module] = {}
        for file in sorted(os.listdir(folder)):
            if file.endswith(".py"):
                with open(os.path.join(folder, file), encoding="utf-8") as source:
                    self.modules[file[:-3]] = Module(file[:-3], ast.parse(source.read(), file))

    def resolve(self, module: str, name: str, hops: int = 0) -> Optional[Tuple[Module, ast.stmt]]:
        """Where a name a module uses is defined in the package, following its relative imports."""
        found = self.modules.get(module)
        if found is None or hops > 10:
            return None
        if name in found.definitions:
            return found, found.definitions[name]
        if name in found.imports:
            other, original = found.imports[name]
            return self.resolve(other, original, hops + 1)
        return None


def text(node: Optional[ast.AST]) -> str:
    return "" if node is None else ast.unparse(node)


def parameters(function: ast.FunctionDef, bound: bool) -> List[Json]:
    arguments = function.args
    positional = [(argument, "positional-only") for argument in arguments.posonlyargs] + [(argument, "positional") for argument in arguments.args]
    defaults: List[Optional[ast.expr]] = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    listed: List[Json] = []
    for (argument, kind), default in zip(positional, defaults):
        listed.append(parameter(argument, kind, default))
    if arguments.vararg is not None:
        listed.append(parameter(arguments.vararg, "var-positional", None))
    for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults):
        listed.append(parameter(argument, "keyword-only", default))
    if arguments.kwarg is not None:
        listed.append(parameter(arguments.kwarg, "var-keyword", None))
    # The instance or class a method is called on is no parameter a caller passes.
    return listed[1:] if bound and listed and listed[0]["kind"] in ("positional", "positional-only") else listed


def parameter(argument: ast.arg, kind: str, default: Optional[ast.expr]) -> Json:
    described: Json = {"name": argument.arg, "kind": kind, "type": text(argument.annotation)}
    if default is not None:
        described["default"] = text(default)
    return described


def decorators(function: ast.FunctionDef) -> List[str]:
    return [text(decorator) for decorator in function.decorator_list]


def function_surface(function: ast.FunctionDef, bound: bool) -> Json:
    marks = decorators(function)
    static = "staticmethod" in marks
    described: Json = {"parameters": parameters(function, bound and not static), "returns": text(function.returns)}
    if static:
        described["static"] = True
    if "classmethod" in marks:
        described["classmethod"] = True
    return described


def is_typed_dict(package: Package, module: Module, node: ast.ClassDef) -> bool:
    for base in node.bases:
        if text(base) in _TYPED_DICT_NAMES:
            return True
        found = package.resolve(module.name, text(base))
        if found is not None and isinstance(found[1], ast.ClassDef) and is_typed_dict(package, found[0], found[1]):
            return True
    return False


def typed_dict_keys(package: Package, module: Module, node: ast.ClassDef) -> Dict[str, Json]:
    """Every key, the bases' first: a class's own ``total`` says whether the keys it declares are required."""
    keys: Dict[str, Json] = {}
    for base in node.bases:
        found = package.resolve(module.name, text(base))
        if found is not None and isinstance(found[1], ast.ClassDef):
            keys.update(typed_dict_keys(package, found[0], found[1]))
    total = True
    for keyword in node.keywords:
        if keyword.arg == "total" and isinstance(keyword.value, ast.Constant):
            total = bool(keyword.value.value)
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            annotation = text(statement.annotation)
            required = total
            for marker, says in (("Required[", True), ("NotRequired[", False)):
                if annotation.startswith(marker):
                    required, annotation = says, annotation[len(marker):-1]
            keys[statement.target.id] = {"type": annotation, "required": required}
    return keys


def public(name: str) -> bool:
    return not name.startswith("_") or name == "__init__"


def class_surface(package: Package, module: Module, node: ast.ClassDef, public_names: Dict[Tuple[str, str], str]) -> Json:
    if is_typed_dict(package, module, node):
        return {"kind": "typeddict", "keys": typed_dict_keys(package, module, node)}
    ancestors: List[str] = []
    methods: Dict[str, Json] = {}
    attributes: Dict[str, str] = {}

    def visit(current_module: Module, current: ast.ClassDef) -> None:
        for base in current.bases:
            found = package.resolve(current_module.name, text(base))
            if found is not None and isinstance(found[1], ast.ClassDef):
                name = public_names.get((found[0].name, found[1].name))
                if name is not None and name not in ancestors:
                    ancestors.append(name)
                visit(found[0], found[1])
            elif text(base) not in ancestors:
                ancestors.append(text(base))
        # A class's own members replace those of its bases, read before it.
        for statement in current.body:
            if isinstance(statement, ast.FunctionDef) and public(statement.name):
                if "property" in decorators(statement):
                    attributes[statement.name] = text(statement.returns)
                    continue
                methods[statement.name] = function_surface(statement, True)
                if statement.name == "__init__":
                    attributes.update(instance_attributes(statement))
            elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and public(statement.target.id):
                attributes[statement.target.id] = text(statement.annotation)

    visit(module, node)
    return {"kind": "class", "ancestors": ancestors, "methods": methods, "attributes": attributes}


def instance_attributes(constructor: ast.FunctionDef) -> Dict[str, str]:
    """The public attributes a constructor sets on ``self``, typed by their annotation or by the parameter they are set from."""
    types = {argument.arg: text(argument.annotation) for argument in constructor.args.args + constructor.args.kwonlyargs}
    found: Dict[str, str] = {}
    for statement in ast.walk(constructor):
        targets: List[Tuple[ast.expr, Optional[ast.expr], ast.expr]] = []
        if isinstance(statement, ast.Assign):
            targets = [(target, None, statement.value) for target in statement.targets]
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets = [(statement.target, statement.annotation, statement.value)]
        for target, annotation, value in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self" and not target.attr.startswith("_"):
                found[target.attr] = text(annotation) if annotation is not None else types.get(value.id, "") if isinstance(value, ast.Name) else ""
    return found


def value_type(package: Package, module: Module, node: ast.stmt, hops: int = 0) -> Json:
    if isinstance(node, ast.AnnAssign):
        return {"kind": "value", "type": text(node.annotation)}
    assert isinstance(node, ast.Assign)
    value = node.value
    if isinstance(value, ast.Name) and hops < 10:
        found = package.resolve(module.name, value.id)
        if found is not None and isinstance(found[1], (ast.Assign, ast.AnnAssign)):
            return value_type(package, found[0], found[1], hops + 1)
    if isinstance(value, ast.Constant):
        return {"kind": "value", "type": type(value.value).__name__}
    if isinstance(value, (ast.Subscript, ast.Attribute, ast.Name)):
        # A name bound to a type, such as ``Hook = Callable[[Report], None]``: an alias callers annotate with.
        return {"kind": "alias", "type": text(value)}
    return {"kind": "value", "type": ""}


def surface(folder: str) -> Json:
    package = Package(folder)
    init = package.modules.get("__init__")
    if init is None:
        raise SystemExit(f"{folder} has no __init__.py: it is not a package.")
    exported = init.exported if init.exported is not None else sorted({name for name in list(init.definitions) + list(init.imports) if not name.startswith("_")})
    resolved: Dict[str, Tuple[Module, ast.stmt]] = {}
    for name in exported:
        found = package.resolve("__init__", name)
        if found is None:
            raise SystemExit(f"__all__ lists {name}, which the package does not define.")
        resolved[name] = found
    public_names = {(found[0].name, getattr(found[1], "name", name)): name for name, found in resolved.items()}
    names: Dict[str, Json] = {}
    for name, (module, node) in resolved.items():
        if isinstance(node, ast.ClassDef):
            names[name] = class_surface(package, module, node, public_names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names[name] = {"kind": "function", **function_surface(node, False)}  # type: ignore[arg-type]
        else:
            names[name] = value_type(package, module, node)
    return {"package": os.path.basename(os.path.normpath(folder)), "names": dict(sorted(names.items()))}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("Usage: python3 surface_reader.py <package folder>")
    json.dump(surface(sys.argv[1]), sys.stdout, indent=None, sort_keys=False)
