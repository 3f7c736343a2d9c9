"""Reading and writing scenario files (format v1, scenario-format.md).

>>> s = loads_scenario("fireground: 1\\nruleset: blitz\\nname: Tiny\\n")
>>> s.name
'Tiny'
>>> from fireground.engine.scenario.emit import dump_scenario
>>> loads_scenario(dump_scenario(s)) == s
True

Reading is defensive (see :mod:`.yamlsafe`): a bad file gives a :class:`ScenarioError`
listing every problem as ``FILE:LINE:COL: message``, never another exception. Writing is
deterministic (:func:`dump_scenario`) and atomic (:func:`save_scenario`).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

from ..board.model import FORMAT_VERSION, Scenario
from ..core.errors import Diagnostic, ScenarioError
from ..core.ruleset import RulesetError, known_rulesets, unit_types
from ..core.yamlsafe import MDict, MList, decode, parse, position
from . import migrate as _migrate
from .refs import semantic_errors
from .schema import FEATURE_MODELS, OBJECTIVE_MODELS, RANGES, ScenarioModel, field_names, model_at
from .validate import to_scenario

__all__ = [
    "MAX_BYTES",
    "MAX_ERRORS",
    "json_schema",
    "load_scenario",
    "loads_scenario",
    "save_scenario",
]

MAX_BYTES = 20 * 1024 * 1024
#: More problems than this are summarised in one last line.
MAX_ERRORS = 50


# -- loading -----------------------------------------------------------------------------


def load_scenario(path: str | os.PathLike[str], *, editing: bool = False) -> Scenario:
    """Read a scenario file. Raises ScenarioError (bad content) or OSError (unreadable).

    ``editing``: open for the editor, which must open whatever it saved. References from
    features, the start, forces and objectives that do not resolve are then left to
    :func:`fireground.engine.checks.check` (which reports each as a finding) instead of
    refusing the file; everything else is refused as always."""
    filename = os.fspath(path)
    st = os.stat(filename)
    if stat.S_ISREG(st.st_mode) and st.st_size > MAX_BYTES:
        raise _too_big(filename, st.st_size)
    with open(filename, "rb") as f:
        data = f.read(MAX_BYTES + 1)  # a device or FIFO has no size: read no more than this
    if len(data) > MAX_BYTES:
        raise _too_big(filename, len(data))
    return loads_scenario(data, filename, editing=editing)


#: Parts of the file whose broken references the editor can show and fix (see
#: ``load_scenario(editing=True)``); a unit's type and duplicate ids are not among them.
_EDITABLE = ("features", "start", "forces", "objectives")


def _deferred(path: tuple[str | int, ...]) -> bool:
    return bool(path) and path[0] in _EDITABLE and path[-1] not in ("type", "id")


def loads_scenario(
    text: str | bytes, filename: str = "<string>", *, editing: bool = False
) -> Scenario:
    """Parse scenario text (UTF-8 bytes or str); ``filename`` is used in messages."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise _too_big(filename, len(text))
        text = decode(text, filename)
    else:
        if len(text) * 4 > MAX_BYTES and len(text.encode("utf-8", "replace")) > MAX_BYTES:
            raise _too_big(filename, len(text.encode("utf-8", "replace")))
        text = text.removeprefix("\ufeff")
    data = parse(text, filename)
    data = _check_version(data, filename)
    try:
        model = ScenarioModel.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(_capped(_pydantic_diagnostics(exc, data, filename))) from None
    try:
        units = unit_types(model.ruleset) if model.ruleset in known_rulesets() else ()
    except RulesetError:
        units = ()
    problems = list(semantic_errors(model, known_rulesets(), units))
    if editing:
        problems = [p for p in problems if not _deferred(p[0])]
    if problems:
        diags = []
        for path, message, near, among in problems:
            line, col = position(data, path)
            diags.append(Diagnostic(filename, line, col, message + _suggest(near, among)))
        raise ScenarioError(_capped(diags))
    scenario = to_scenario(model)
    object.__setattr__(scenario, "source", _source_map(data))
    object.__setattr__(scenario, "source_file", filename)
    return scenario


def _too_big(filename: str, size: int) -> ScenarioError:
    return ScenarioError.at(
        filename,
        1,
        1,
        f"file too large ({size / 2**20:.1f} MB; the limit is {MAX_BYTES // 2**20} MB)",
    )


def _check_version(data: Any, filename: str) -> Any:
    if data is None:
        raise ScenarioError.at(filename, 1, 1, "empty file: not a fireground scenario")
    if type(data) is not MDict:
        line, col = getattr(data, "mark", (1, 1))
        raise ScenarioError.at(
            filename, line, col, "not a fireground scenario: the file must be a mapping of keys"
        )
    if "fireground" not in data:
        raise ScenarioError.at(
            filename, 1, 1, f"not a fireground scenario: missing 'fireground: {FORMAT_VERSION}'"
        )
    version = data["fireground"]
    line, col = data.vmarks["fireground"]
    if type(version) is not int:
        raise ScenarioError.at(
            filename, line, col, f"the format version must be a whole number, got {_show(version)}"
        )
    if version > FORMAT_VERSION:
        raise ScenarioError.at(
            filename,
            line,
            col,
            f"written by a newer fireground (format {version}; "
            f"this program reads up to {FORMAT_VERSION})",
        )
    if version < FORMAT_VERSION:
        try:
            data = _migrate.migrate(data, version)
        except _migrate.MigrationError as e:
            raise ScenarioError.at(filename, line, col, str(e)) from None
        except Exception as e:  # a migration step choking on odd data
            raise ScenarioError.at(
                filename, line, col, f"cannot migrate from format {version}: {e}"
            ) from None
    return data


def _capped(diags: list[Diagnostic]) -> list[Diagnostic]:
    diags.sort(key=lambda d: (d.line, d.col))
    if len(diags) <= MAX_ERRORS:
        return diags
    rest = len(diags) - MAX_ERRORS
    last = diags[MAX_ERRORS - 1]
    return [*diags[:MAX_ERRORS], Diagnostic(last.file, 0, 0, f"... and {rest} more problems")]


def _suggest(word: object, among: Iterable[str]) -> str:
    if not isinstance(word, str) or not word:
        return ""
    import difflib  # (only for a bad file: a good one never needs it)

    cutoff = 0.5 if len(word) <= 4 else 0.6  # 'R2' vs 'R1' scores 0.5
    choices = list(among)
    close = difflib.get_close_matches(word, choices, n=1, cutoff=cutoff)
    if not close:  # 'Hydrant' -> 'hydrant', 'sw' -> 'SW'
        folded = {c.casefold(): c for c in choices}
        hit = difflib.get_close_matches(word.casefold(), list(folded), n=1, cutoff=cutoff)
        close = [folded[hit[0]]] if hit else []
    return f" (did you mean '{close[0]}'?)" if close else ""


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "nothing (null)"
    if isinstance(v, str):
        return repr(v if len(v) <= 40 else v[:37] + "...")
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    return str(v)


_WHAT = {
    "kind": "area kind",
    "material": "material",
    "from": "wind direction",
    "mains": "mains state (working or failed)",
}
_TYPE_WORDS = {
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "string_type": "text",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping of keys",
    "model_type": "a mapping of keys",
    "model_attributes_type": "a mapping of keys",
    "none_required": "nothing",
}


def _pydantic_diagnostics(exc: ValidationError, data: Any, filename: str) -> list[Diagnostic]:
    out = []
    errors = exc.errors(include_url=False)
    # 'polgon' misspelt gives an unknown key *and* a missing 'polygon': say it once.
    suggested = set()
    for e in errors:
        if e["type"] == "extra_forbidden":
            message, _ = _message(e, tuple(e["loc"]), data)
            hint = re.search(r"did you mean '([^']*)'", message)
            if hint:
                suggested.add((*e["loc"][:-1], hint.group(1)))
    for e in errors:
        if e["type"] == "missing" and tuple(e["loc"]) in suggested:
            continue
        loc = tuple(e["loc"])
        # Drop the union tag pydantic inserts: ('features', 2, 'hydrant', 'pressure').
        if len(loc) > 2 and loc[0] in ("features", "objectives") and isinstance(loc[2], str):
            tags = FEATURE_MODELS if loc[0] == "features" else OBJECTIVE_MODELS
            if loc[2] in tags:
                loc = loc[:2] + loc[3:]
        message, at_key = _message(e, loc, data)
        if e["type"] == "union_tag_invalid":
            loc = (*loc, "type")  # point at the bad type, not the item
        line, col = position(data, loc, key=at_key)
        out.append(Diagnostic(filename, line, col, message))
    return out


def _message(e: Any, loc: tuple[Any, ...], data: Any) -> tuple[str, bool]:
    typ: str = e["type"]
    value = e.get("input")
    ctx = e.get("ctx") or {}
    name = next((p for p in reversed(loc) if isinstance(p, str)), "value")
    if typ == "missing":
        return f"missing key '{name}'", False
    if typ == "extra_forbidden":
        parent = _value_at(data, loc[:-1])
        dtype = parent.get("type") if isinstance(parent, dict) else None
        model = model_at(loc[:-1], dtype if isinstance(dtype, str) else None)
        hint = _suggest(name, field_names(model)) if model else ""
        return f"unknown key '{name}'{hint}", True
    if typ in ("literal_error", "enum"):
        choices = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        what = _WHAT.get(name, name)
        hint = _suggest(value, choices) or f" (one of {', '.join(choices)})"
        return f"unknown {what} {_show(value)}{hint}", False
    if typ in ("union_tag_invalid", "union_tag_not_found"):
        kinds = FEATURE_MODELS if loc[0] == "features" else OBJECTIVE_MODELS
        what = "feature" if loc[0] == "features" else "objective"
        if typ == "union_tag_not_found":
            return f"missing key 'type' ({what} types: {', '.join(kinds)})", False
        tag = ctx.get("tag", "")
        hint = _suggest(tag, kinds) or f" (one of {', '.join(kinds)})"
        return f"unknown {what} type '{tag}'{hint}", False
    if typ in _TYPE_WORDS:
        return f"{name}: expected {_TYPE_WORDS[typ]}, got {_show(value)}", False
    if typ in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        if name in RANGES:
            lo, hi = RANGES[name]
            return f"{name} must be {lo}..{hi}, got {_show(value)}", False
        bound = {"greater_than_equal": "at least", "less_than_equal": "at most"}
        word = bound.get(typ, "more than" if typ == "greater_than" else "less than")
        limit = next(iter(ctx.values()), "?")
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)  # "more than 0", not "more than 0.0"
        return f"{name} must be {word} {limit}, got {_show(value)}", False
    if typ in ("too_short", "too_long"):
        n = ctx.get("actual_length", "?")
        if name == "polygon" and isinstance(loc[-1], str):
            return f"a polygon needs at least 3 points, got {n}", False
        if "polygon" in loc or name == "origin":
            return f"a point is [x, y], got {n} numbers", False
        if isinstance(value, str):
            return f"{name} must not be empty", False
    if typ == "string_too_short":
        return f"{name} must not be empty", False
    if typ == "string_pattern_mismatch":
        return f"{_show(value)} is not a valid id (use letters, digits, '-' and '_')", False
    if typ == "finite_number":
        return f"{name}: expected a finite number", False
    return f"{name}: {e['msg']}", False


def _value_at(data: Any, path: tuple[Any, ...]) -> Any:
    node = data
    for p in path:
        in_dict = isinstance(node, dict) and isinstance(p, str) and p in node
        in_list = isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node)
        if in_dict or in_list:
            node = node[p]
    return node


def _source_map(data: MDict) -> dict[tuple[str | int, ...], tuple[int, int]]:
    """Positions of top-level values, list items and their keys (start: one level more).

    After a migration the data may hold values the parser never saw at that place; they
    get the position of their own start when they have one, else none.
    """
    src: dict[tuple[str | int, ...], tuple[int, int]] = {}

    def visit(child: Any, path: tuple[str | int, ...], mark: Any, depth: int) -> None:
        mark = mark or getattr(child, "mark", None)
        if mark is not None:
            src[path] = mark
        if depth > 1:
            walk(child, path, depth - 1)

    def walk(node: Any, path: tuple[str | int, ...], depth: int) -> None:
        if type(node) is MDict:
            for k, child in node.items():
                visit(child, (*path, k), node.vmarks.get(k), depth)
        elif type(node) is MList:
            marks = node.vmarks if len(node.vmarks) == len(node) else []
            for i, child in enumerate(node):
                visit(child, (*path, i), marks[i] if marks else None, depth)

    for k, child in data.items():
        visit(child, (k,), data.vmarks.get(k), 1)
        if k != "house_rules":
            walk(child, (k,), 3 if k == "start" else 2)
    return src


# -- saving ------------------------------------------------------------------------------


def save_scenario(s: Scenario, path: str | os.PathLike[str]) -> None:
    """Write ``s`` to ``path`` atomically, keeping the previous file as ``path.bak``."""
    from .emit import dump_scenario  # (only when saving: reading never needs the writer)

    atomic_write(path, dump_scenario(s).encode("utf-8"))


def atomic_write(path: str | os.PathLike[str], data: bytes, *, backup: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file.

    The data goes to a temporary file in the same folder, is flushed to disk, takes the old
    file's permission bits, and is renamed over the target; the folder is synced after.
    With ``backup`` the old file stays as ``path.bak``.
    """
    import tempfile  # (only when saving: reading never needs it)

    target = os.path.realpath(os.fspath(path))
    folder = os.path.dirname(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
        exists = True
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode, exists = 0o666 & ~umask, False
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
        )
    except OSError as e:
        raise OSError(e.errno, f"cannot save: {e.strerror}", target) from None
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fchmod(fd, mode)
        os.fsync(fd)
    except BaseException as e:
        os.close(fd)
        os.unlink(tmp)
        if isinstance(e, OSError):
            raise OSError(e.errno, f"cannot save: {e.strerror}", target) from None
        raise
    os.close(fd)
    try:
        if backup and exists:
            _keep_backup(target)
        os.replace(tmp, target)
    except OSError as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise OSError(e.errno, f"cannot save: {e.strerror}", target) from None
    _fsync_dir(folder)


def _keep_backup(target: str) -> None:
    """Make ``target.bak`` a copy of ``target`` without ever leaving a torn ``.bak``."""
    bak = target + ".bak"
    tmp = f"{bak}.{os.getpid()}.tmp"
    try:
        os.link(target, tmp)  # cheap and atomic where hard links exist
    except OSError:
        import shutil

        shutil.copy2(target, tmp)
    os.replace(tmp, bak)


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # some platforms cannot open folders; the rename is done anyway
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- schema ------------------------------------------------------------------------------


def json_schema() -> dict[str, Any]:
    """JSON Schema (draft-07, as yaml-language-server reads it) of the format."""
    schema = ScenarioModel.model_json_schema(by_alias=True, mode="validation")
    defs = schema.pop("$defs", {})

    def fix(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: fix(v) for k, v in node.items()}
            return out
        if isinstance(node, list):
            return [fix(v) for v in node]
        if isinstance(node, str) and node.startswith("#/$defs/"):  # $ref and discriminators
            return "#/definitions/" + node[len("#/$defs/") :]
        return node

    result: dict[str, Any] = {"$schema": "http://json-schema.org/draft-07/schema#"}
    result.update(fix(schema))
    result["definitions"] = {k: fix(v) for k, v in sorted(defs.items())}
    result["properties"]["ruleset"]["enum"] = list(known_rulesets())
    force_type = result["definitions"]["ForceModel"]["properties"]["type"]
    force_type["enum"] = list(unit_types("blitz"))
    return result
