"""Point imports written for the flat engine layout (before issue 14) at the new one.

For a branch written against the old paths and merged after the restructure: git's rename
detection carries its edits into the moved files, but a new import line there (or in a
test) still names an old module. This rewrites every import that does not resolve in the
new layout, using the table below (the same as the table in docs/architecture.md; and
BLITZ!'s documents, moved from export/ to export/games/blitz/), and
leaves every import that resolves alone, so it is safe to re-run. Run from the repository
root, then ``ruff check --fix --select I`` and ``ruff format``; it prints what it changed.

    .venv/bin/python tools/refactor/relayout_imports.py [PATH ...]
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

#: old module under engine/ -> new module under engine/ ("" prefix: fireground/)
MOVED = {
    "dice": "core.dice", "errors": "core.errors", "yamlsafe": "core.yamlsafe",
    "ruleset": "core.ruleset", "turn": "core.turn", "log": "core.log",
    "scenario": "board.model", "shapes": "board.shapes", "adjacency": "board.adjacency",
    "jumps": "board.jumps", "graph": "board.graph", "hose": "board.hose",
    "io": "scenario.io", "emit": "scenario.emit", "migrate": "scenario.migrate",
    "synthetic": "scenario.synthetic", "model": "scenario.validate",
    "model_schema": "scenario.schema", "model_refs": "scenario.refs",
    "geojson_common": "scenario.geojson.common", "geojson_props": "scenario.geojson.props",
    "geojson_read": "scenario.geojson.read", "geojson_write": "scenario.geojson.write",
    "simulate": "play.simulate", "analysis": "play.analysis",
    "analysis_games": "play.montecarlo", "analysis_report": "play.report",
    "steps": "games.blitz.steps", "state": "games.blitz.state", "units": "games.blitz.units",
    "score": "games.blitz.score", "checks": "games.blitz.checks.run",
    "checks_context": "games.blitz.checks.context",
    "checks_geometry": "games.blitz.checks.geometry",
    "checks_reach": "games.blitz.checks.reach", "checks_refs": "games.blitz.checks.refs",
    "orders": "games.blitz.orders.apply", "orders_check": "games.blitz.orders.check",
    "orders_file": "games.blitz.orders.file", "hose_steps": "games.blitz.reach.hose_steps",
    "rules.danger": "games.blitz.reach.danger", "rules.foot": "games.blitz.reach.foot",
    "rules": "games.blitz.rules", "autopilot": "games.blitz.autopilot",
    "fastsim": "games.blitz.fastsim", "_fastkernels": "games.blitz.fastsim.numba_kernels",
    "rulesets": "games.blitz.rulesets",
    # moved later (BLITZ! out of play/)
    "play.choices": "games.blitz.choices", "play.delta": "games.blitz.delta",
}  # fmt: skip
for _m in ["acting", "bombing", "damage", "equipment", "fatigue", "fire", "firefighting", "hoses", "ignition", "movement", "reach", "rescue", "spread_plan", "water", "wheelbarrow"]:  # fmt: skip
    MOVED[f"rules.{_m}"] = f"games.blitz.rules.{_m}"
for _m in ["casualties", "jobs", "parking", "priorities", "support", "teams", "wheelbarrow"]:
    MOVED[f"autopilot.{_m}"] = f"games.blitz.autopilot.{_m}"
for _m in ["batch", "model", "runner"]:
    MOVED[f"fastsim.{_m}"] = f"games.blitz.fastsim.{_m}"
#: modules that left the engine for the CLI package
LEFT = {"geojson": "fireground.geojson"}

ENGINE = Path("engine")


def exists(mod: str) -> bool:
    """Whether ``fireground.engine.<mod>`` is a module or package in the working tree."""
    base = ENGINE.joinpath(*mod.split(".")) if mod else ENGINE
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def resolves(target: str, node: ast.ImportFrom) -> bool:
    """Whether ``from <target> import <names>`` means the same in the new layout: the module
    exists, and where an old module's name is now a package (``scenario``), every name is
    one of its submodules."""
    if not exists(target):
        return False
    if not target or target in MOVED:
        return all(exists(f"{target}.{a.name}".strip(".")) for a in node.names)
    return True


def new_name(old: str) -> str | None:
    """The new engine-relative name of an old one (None: unknown)."""
    parts = old.split(".")
    for k in range(len(parts), 0, -1):
        head = ".".join(parts[:k])
        if head in MOVED:
            return ".".join([MOVED[head], *parts[k:]])
    return None


def old_path_of(path: Path) -> str | None:
    """The old engine-relative module of a file at a new path (its old package decides how
    an old relative import resolves)."""
    rel = ".".join(path.relative_to(ENGINE).with_suffix("").parts)
    for old, new in MOVED.items():
        if rel == new or rel == f"{new}.__init__":
            return old
    return None


def resolve(level: int, module: str | None, package: str) -> str:
    base = package.split(".") if package else []
    base = base[: len(base) - level + 1] if level > 1 else base
    return ".".join([*base, *([module] if module else [])]).strip(".")


def relative(from_package: str, target: str) -> str:
    p = from_package.split(".") if from_package else []
    t = target.split(".")
    c = 0
    while c < min(len(p), len(t)) and p[c] == t[c]:
        c += 1
    return "." * (len(p) - c + 1) + ".".join(t[c:])


def fix_file(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    in_engine = path.parts[0] == "engine"
    package = old_package = ""
    if in_engine:
        mod = ".".join(path.relative_to(ENGINE).with_suffix("").parts)
        is_pkg = path.name == "__init__.py"
        package = mod.removesuffix(".__init__") if is_pkg else mod.rpartition(".")[0]
        old = old_path_of(path)
        if old is not None:
            old_pkg = old in ("rules", "autopilot", "fastsim", "rulesets")
            old_package = old if old_pkg else old.rpartition(".")[0]
        else:
            old_package = package
    offs = [0]
    for line in text.splitlines(keepends=True):
        offs.append(offs[-1] + len(line))
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level and in_engine:
            target = resolve(node.level, node.module, package)
            if resolves(target, node):
                continue
            old_target = resolve(node.level, node.module, old_package)
        elif not node.level and (node.module or "").startswith("fireground.engine"):
            target = (node.module or "").removeprefix("fireground.engine").lstrip(".")
            if resolves(target, node):
                continue
            old_target = target
        else:
            continue
        groups: dict[str, list[str]] = {}
        for a in node.names:
            sub = f"{old_target}.{a.name}".strip(".")
            moved_sub = (
                new_name(sub) if sub.split(".")[0] in {k.split(".")[0] for k in MOVED} else None
            )
            if moved_sub is not None and (sub in MOVED or sub in LEFT):
                parent, _, last = moved_sub.rpartition(".")
                bound = a.asname or a.name
                groups.setdefault(parent, []).append(
                    last if bound == last else f"{last} as {bound}"
                )
            else:
                new = new_name(old_target) if old_target else ""
                if new is None:
                    print(f"{path}:{node.lineno}: cannot map {old_target!r}", file=sys.stderr)
                    break
                groups.setdefault(new, []).append(
                    a.name if not a.asname else f"{a.name} as {a.asname}"
                )
        else:
            lines = []
            for target_mod, names in groups.items():
                src = (
                    relative(package, target_mod)
                    if in_engine
                    else f"fireground.engine.{target_mod}".rstrip(".")
                )
                lines.append(f"from {src} import {', '.join(names)}")
            s = offs[node.lineno - 1] + node.col_offset
            e = offs[node.end_lineno - 1] + node.end_col_offset  # type: ignore[operator]
            edits.append((s, e, ("\n" + " " * node.col_offset).join(lines)))
    for s, e, new in sorted(edits, reverse=True):
        print(f"{path}: {text[s:e]!r} -> {new!r}")
        text = text[:s] + new + text[e:]

    def string_ref(m: re.Match[str]) -> str:
        mod = m.group(0).removeprefix("fireground.engine.")
        parts = mod.split(".")
        for k in range(len(parts), 0, -1):
            if exists(".".join(parts[:k])):
                return m.group(0)  # resolves (a module, then attributes)
        new = new_name(mod)
        return m.group(0) if new is None else f"fireground.engine.{new}"

    text2 = re.sub(r"fireground\.engine(?:\.\w+)+", string_ref, text)
    if edits or text2 != text:
        path.write_text(text2, encoding="utf-8")
        return True
    return False


#: BLITZ!'s documents that moved from export/ to export/games/blitz/
EXPORT_MOVED = ("briefing", "cards", "counters", "reference", "turn_report", "turn_sheet")
EXPORT_BLITZ = Path("export/games/blitz")


def fix_export_file(path: Path) -> bool:
    """The same for the exporter: imports between export/ and export/games/blitz/ that no
    longer resolve, and ``fireground.export.<document>`` names."""
    text = path.read_text(encoding="utf-8")
    new = text
    if path.parent == EXPORT_BLITZ:

        def up(m: re.Match[str]) -> str:
            indent, name, rest = m.group(1), m.group(2), m.group(3)
            if (EXPORT_BLITZ / f"{name}.py").exists():
                return m.group(0)
            return f"{indent}from ...{name} import{rest}"

        new = re.sub(r"^(\s*)from \.(\w+) import(.*)$", up, new, flags=re.MULTILINE)

        def up_module(m: re.Match[str]) -> str:
            names = [n.strip().split(" as ")[0] for n in m.group(2).split(",")]
            if all((EXPORT_BLITZ / f"{n}.py").exists() for n in names):
                return m.group(0)
            return f"{m.group(1)}from ... import {m.group(2)}"

        new = re.sub(r"^(\s*)from \. import (.*)$", up_module, new, flags=re.MULTILINE)
    elif path.parent == Path("export"):
        for doc in EXPORT_MOVED:
            new = re.sub(
                rf"^(\s*)from \.{doc} import",
                rf"\1from .games.blitz.{doc} import",
                new,
                flags=re.MULTILINE,
            )
    for doc in EXPORT_MOVED:
        new = re.sub(rf"fireground\.export\.{doc}\b", f"fireground.export.games.blitz.{doc}", new)
        new = re.sub(
            rf"^(\s*)from fireground\.export import {doc}\b",
            rf"\1from fireground.export.games.blitz import {doc}",
            new,
            flags=re.MULTILINE,
        )
    if new != text:
        path.write_text(new, encoding="utf-8")
        print(f"{path}: export imports moved")
        return True
    return False


def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv] or [
        Path(r)
        for r in ("engine", "editor", "export", "fireground", "tests", "benchmarks", "tools")
    ]
    files = [p for r in roots for p in ([r] if r.is_file() else r.rglob("*.py"))]
    changed = sum(fix_file(p) for p in files if "refactor" not in p.parts)
    changed += sum(fix_export_file(p) for p in files if "refactor" not in p.parts)
    print(f"{changed} files changed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
