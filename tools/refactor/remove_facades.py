"""Remove the engine's re-export facades: every use of a name through a module that only
re-exports it (``mv.start_hose``, ``from ..rules.reach import heat``) is rewritten to the
module that defines it (``hoses.start_hose``, ``from ..reach.danger import heat``), then the
facade stops re-exporting (its ``__all__`` keeps its own names; ``X as X`` imports become
plain, so ruff drops the unused ones).

A re-export is a module-level ``from M import N`` in an engine module whose bound name is in
that module's ``__all__`` or is written ``N as N``. Run from the repository root, then
``ruff check --fix --select I`` and ``ruff check --fix --select F401`` on the facades
(printed), and ``ruff format``. Idempotent: on a tree with no facade it changes nothing, so
it can be re-run after merging a branch written against the facades.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOTS = ["engine", "editor", "export", "fireground", "tests", "benchmarks", "tools"]
SKIP = {"tools/refactor"}


def module_name(path: Path) -> str:
    parts = list(path.with_suffix("").parts)
    if parts[0] == "engine":
        parts = ["fireground", *parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def absolute(node: ast.ImportFrom, mod: str, pkg: bool) -> str:
    if not node.level:
        return node.module or ""
    base = mod.split(".") if pkg else mod.split(".")[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base) + (f".{node.module}" if node.module else "")


def literal_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return [e.value for e in node.value.elts]  # type: ignore[attr-defined]
    return None


def collect(files: dict[str, Path]) -> dict[str, dict[str, tuple[str, str]]]:
    """facade module -> {re-exported name: (defining module, its name there)}"""
    reexp: dict[str, dict[str, tuple[str, str]]] = {}
    for mod, path in files.items():
        if not mod.startswith("fireground.engine"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set(literal_all(tree) or ())
        for node in tree.body:
            if not isinstance(node, ast.ImportFrom):
                continue
            src = absolute(node, mod, is_package(path))
            if not src.startswith("fireground.engine"):
                continue
            for a in node.names:
                bound = a.asname or a.name
                if f"{src}.{a.name}" in files:
                    continue  # a submodule, not a name
                if bound in names or a.asname == a.name:
                    reexp.setdefault(mod, {})[bound] = (src, a.name)
    # follow chains (a facade re-exporting a facade's name)
    for table in reexp.values():
        for bound, (src, name) in list(table.items()):
            seen = 0
            while src in reexp and name in reexp[src] and seen < 10:
                src, name = reexp[src][name]
                seen += 1
            table[bound] = (src, name)
    return reexp


def relative(from_mod: str, from_pkg: bool, target: str) -> str:
    pkg = from_mod.split(".") if from_pkg else from_mod.split(".")[:-1]
    t = target.split(".")
    c = 0
    while c < min(len(pkg), len(t)) and pkg[c] == t[c]:
        c += 1
    return "." * (len(pkg) - c + 1) + ".".join(t[c:])


def rewrite(path: Path, mod: str, files: dict[str, Path], reexp: dict) -> bool:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    in_engine = mod.startswith("fireground.engine")
    pkg = is_package(path)
    lines = text.splitlines(keepends=True)
    offs = [0]
    for ln in lines:
        offs.append(offs[-1] + len(ln))

    def span(n: ast.AST) -> tuple[int, int]:
        return offs[n.lineno - 1] + n.col_offset, offs[n.end_lineno - 1] + n.end_col_offset  # type: ignore[attr-defined]

    def source_of(target: str) -> str:
        return relative(mod, pkg, target) if in_engine else target

    bindings: dict[str, str] = {}  # local name -> facade module
    module_binds: dict[str, str] = {}  # module -> local name (any module import)
    used_names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used_names |= {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    edits: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            src = absolute(node, mod, pkg)
            for a in node.names:
                full = f"{src}.{a.name}"
                if full in files:
                    module_binds.setdefault(full, a.asname or a.name)
                    if full in reexp:
                        bindings[a.asname or a.name] = full
            if src in reexp and src != mod and any(a.name in reexp[src] for a in node.names):
                groups: dict[str, list[str]] = {}
                for a in node.names:
                    origin, name = reexp[src].get(a.name, (src, a.name))
                    bound = a.asname or a.name
                    groups.setdefault(origin, []).append(
                        name if bound == name and not a.asname else f"{name} as {bound}"
                    )
                indent = " " * node.col_offset
                new = f"\n{indent}".join(
                    f"from {source_of(o)} import {', '.join(ns)}" for o, ns in groups.items()
                )
                edits.append((*span(node), new))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in reexp and a.asname:
                    bindings[a.asname] = a.name
    needed: dict[str, str] = {}
    in_fstring = {
        id(n) for j in ast.walk(tree) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)
    }
    for node in ast.walk(tree):
        if id(node) in in_fstring and isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in bindings:
                print(f"{path}:{node.lineno}: inside an f-string, left alone", file=sys.stderr)
            continue
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bindings
        ):
            facade = bindings[node.value.id]
            if node.attr not in reexp[facade]:
                continue
            origin, name = reexp[facade][node.attr]
            if origin == mod:
                new = name
            else:
                local = module_binds.get(origin) or needed.get(origin)
                if local is None:
                    last = origin.rsplit(".", 1)[1]
                    local = last
                    if last in used_names or last in module_binds.values():
                        local = "_".join(origin.rsplit(".", 2)[1:])
                    needed[origin] = local
                new = f"{local}.{name}"
            s, e = span(node)
            edits.append((s, e, new))
    if not edits:
        return False
    for s, e, new in sorted(edits, reverse=True):
        text = text[:s] + new + text[e:]
    if needed:
        tree2 = ast.parse(text)
        last_import = max(
            n.end_lineno for n in tree2.body if isinstance(n, (ast.Import, ast.ImportFrom))
        )
        add = []
        for origin, local in needed.items():
            parent, last = origin.rsplit(".", 1)
            alias = "" if local == last else f" as {local}"
            add.append(f"from {source_of(parent)} import {last}{alias}\n")
        ls = text.splitlines(keepends=True)
        text = "".join(ls[:last_import] + add + ls[last_import:])
    path.write_text(text, encoding="utf-8")
    return True


def strip_facade(path: Path, mod: str, table: dict[str, tuple[str, str]]) -> None:
    """The facade keeps its own names in __all__ and imports without ``X as X``."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    offs = [0]
    for ln in lines:
        offs.append(offs[-1] + len(ln))
    edits = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            keep = [e.value for e in node.value.elts if e.value not in table]  # type: ignore[attr-defined]
            s = offs[node.lineno - 1]
            e = offs[node.end_lineno]  # type: ignore[index]
            new = (
                "" if not keep else "__all__ = [\n" + "".join(f'    "{k}",\n' for k in keep) + "]\n"
            )
            edits.append((s, e, new))
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.asname == a.name:
                    s = offs[node.lineno - 1] + node.col_offset
                    e = offs[node.end_lineno - 1] + node.end_col_offset  # type: ignore[operator]
                    seg = text[s:e].replace(f"{a.name} as {a.name}", a.name)
                    edits.append((s, e, seg))
                    break
    for s, e, new in sorted(set(edits), reverse=True):
        text = text[:s] + new + text[e:]
    path.write_text(text, encoding="utf-8")


def main() -> int:
    files: dict[str, Path] = {}
    for root in ROOTS:
        for p in Path(root).rglob("*.py"):
            if not any(str(p).startswith(s) for s in SKIP):
                files[module_name(p)] = p
    reexp = collect(files)
    for facade, table in sorted(reexp.items()):
        print(f"facade {facade}: {len(table)} names", file=sys.stderr)
    changed = [p for m, p in files.items() if rewrite(p, m, files, reexp)]
    for facade, table in reexp.items():
        strip_facade(files[facade], facade, table)
    print("\n".join(str(files[f]) for f in reexp))
    print(f"{len(changed)} files rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
