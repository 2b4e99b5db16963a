"""The shape of the package: no import cycles in src/mcda, no private names across analysis modules,
no comment or docstring that narrates the code's history or names a path on one machine.

Reads the import graph with ``ast`` (every ``import`` / ``from … import`` of a module, at module
level or inside a function: a cycle through a deferred import is still a cycle of the design).
"""

from __future__ import annotations

import ast
import io
import os
import re
import subprocess
import sys
import textwrap
import tokenize
import warnings
from pathlib import Path

import numpy as np

import mcda

PACKAGE = Path(mcda.__file__).parent

def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _imports(modules: dict[str, Path]):
    """(importer, imported module, imported name or None) for every import inside the package."""
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("mcda"):
                        yield name, alias.name, None
            elif isinstance(node, ast.ImportFrom):
                target = _resolve(name, is_package, node.level, node.module)
                if not target.startswith("mcda"):
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in modules:  # "from . import _chunks" imports a module
                        yield name, sub, None
                    else:
                        yield name, target, alias.name


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for importer, imported, _ in _imports(modules):
        if imported in modules and imported != importer and imported != "mcda":
            graph[importer].add(imported)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_is_read():
    graph = _graph()
    assert "mcda.stats._shared.multitest" in graph["mcda.stats.across.compare"]
    assert "mcda.data.cube" in graph["mcda.stats._shared.ranks"]


def test_cycle_detection_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    cycles = _cycles(_graph())
    assert not cycles, "import cycles in src/mcda: " + "; ".join(" <-> ".join(c) for c in cycles)


# --------------------------------------------------------------------------- the layers
#: DESIGN.md's layers, by the folder a module lives in (the package tree is the layering). A module
#: imports only from its own layer or below. ``ingest`` builds on ``data`` and nothing but ``app``
#: and the public namespaces may import it.
LAYERS = {"_core": 0, "data": 1, "datasets": 1, "stats": 2, "ingest": 2, "present": 3, "app": 4}
#: The public namespaces at the top of the package: they only re-export.
PUBLIC_LAYER = 5


def _layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] not in LAYERS:
        return PUBLIC_LAYER
    return LAYERS[parts[1]]


def _family(module: str) -> str | None:
    """The statistics family a module belongs to: the first name below ``mcda.stats``."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "stats" else None




def _edges():
    modules = _modules()
    for importer, imported, name in _imports(modules):
        if imported in modules and imported != importer and imported != "mcda":
            yield importer, imported, name


def test_the_layers_are_read_from_the_paths():
    assert _layer("mcda._core.validation") == 0 and _layer("mcda.data.cube") == 1
    assert _layer("mcda.stats.across.compare") == 2 and _layer("mcda.present.latex") == 3
    assert _layer("mcda.app.cli") == 4 and _layer("mcda.plots") == PUBLIC_LAYER == _layer("mcda")
    assert _family("mcda.stats.across.compare") == "across" and _family("mcda.stats.pairwise") == "pairwise"
    assert _family("mcda.data.cube") is None


def test_every_folder_of_the_package_is_a_layer():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= set(LAYERS), f"folders with no layer in LAYERS: {sorted(folders - set(LAYERS))}"


def test_imports_only_go_down_the_layers():
    offences = [f"{a} (layer {_layer(a)}) imports {b} (layer {_layer(b)})"
                for a, b, _ in _edges() if _layer(b) > _layer(a)]
    assert not offences, "imports up the layers:\n" + "\n".join(sorted(set(offences)))


def test_only_the_command_line_and_the_public_namespaces_load_the_ingestion_engine():
    offences = [f"{a} imports {b}" for a, b, _ in _edges()
                if b.startswith("mcda.ingest") and not a.startswith("mcda.ingest")
                and _layer(a) not in (LAYERS["app"], PUBLIC_LAYER)]
    assert not offences, "\n".join(sorted(set(offences)))


# --------------------------------------------------------------------------- private names stay home
def _top(module: str) -> str:
    """The top-level package of a module (``data`` for mcda.data.io); a top-level module is its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _private_offences(imports) -> list[str]:
    """``from mcda.X import _name`` where X is another top-level package than the importer's."""
    return sorted({f"{a} imports {n} from {b}" for a, b, n in imports
                   if n and n.startswith("_") and not n.startswith("__") and _top(a) != _top(b)})


def test_the_private_name_scan_finds_what_it_looks_for():
    imports = [("mcda.ingest.convert", "mcda.data.readers", "_numeric"),
               ("mcda.data.cube", "mcda.data.readers", "_numeric"),
               ("mcda.stats.across.compare", "mcda.stats._shared.ranks", "rank_sums"),
               ("mcda.plots", "mcda.present", "plots")]
    assert _private_offences(imports) == ["mcda.ingest.convert imports _numeric from mcda.data.readers"]


def test_no_private_name_is_imported_across_top_level_packages():
    # a helper another package needs gets a public name in its module (its package's internal API);
    # private names are shared only inside their own package
    offences = _private_offences(_imports(_modules()))
    assert not offences, "private names imported from another package:\n" + "\n".join(offences)


# --------------------------------------------------------------------------- the statistics families
#: What every family of ``stats/`` may import besides itself: the shared helpers and the registry.
SHARED_FAMILIES = ("_shared", "procedures")


def _composes(path: Path) -> tuple[str, ...]:
    """The families a module declares it composes: its module-level ``__composes__`` tuple, read by ast."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__composes__"
                                                for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    return ()


def _family_offences(edges, composes) -> list[str]:
    """The imports of one family from another that the importer does not declare in ``__composes__``."""
    return sorted({f"{a} imports {b}" for a, b, _ in edges
                   if _family(a) and _family(b) and _family(a) != _family(b)
                   and _family(b) not in SHARED_FAMILIES and _family(b) not in composes(a)})


def test_the_family_rule_finds_what_it_looks_for():
    edges = [("mcda.stats._shared.ranks", "mcda.stats.within.seeds", "summary"),
             ("mcda.stats.criteria", "mcda.stats.pairwise", None),
             ("mcda.stats.across.compare", "mcda.stats._shared.ranks", None),
             ("mcda.stats.bayesian.sign", "mcda.stats.bayesian._shared", None),
             ("mcda.stats.effects", "mcda.stats.procedures", None)]
    declared = {"mcda.stats.criteria": ("pairwise",)}
    assert _family_offences(edges, lambda m: declared.get(m, ())) == [
        "mcda.stats._shared.ranks imports mcda.stats.within.seeds"]


def test_families_import_only_the_shared_helpers_the_registry_and_themselves():
    # a family (a package or module directly under stats/) that composes others says so in
    # ``__composes__``; ``_shared`` and the registry compose nothing
    modules = _modules()
    offences = _family_offences(_edges(), lambda m: _composes(modules[m]))
    assert not offences, ("imports between statistics families (declare a composer's families in its "
                          "``__composes__``):\n" + "\n".join(offences))


def test_every_declared_composition_is_used_and_names_a_family():
    modules = _modules()
    families = {_family(m) for m in modules if _family(m)}
    used = {(a, _family(b)) for a, b, _ in _edges() if _family(a) and _family(b)}
    offences = []
    for name, path in modules.items():
        for family in _composes(path):
            if family not in families or family in SHARED_FAMILIES or family == _family(name):
                offences.append(f"{name}: {family!r} is not another statistics family")
            elif (name, family) not in used:
                offences.append(f"{name} declares {family!r} but imports nothing of it")
            if _family(name) in SHARED_FAMILIES:
                offences.append(f"{name}: the shared helpers and the registry compose no family")
    assert not offences, "\n".join(offences)


# --------------------------------------------------------------------------- what the text says
#: Comments and docstrings say what the code does and why, not how it came to be: no issue
#: numbers, sessions, plans or "used to" stories (the history is in git and CHANGELOG.md).
NARRATION = re.compile(r"\blater issues?\b|\b(?:previous|this|next) session\b|\bplanned\b|"
                       r"\bnot (?:yet )?implemented\b|\bimplemented later\b|\bissue #?\d+|"
                       r"\bwritten with the\b|\bused to (?:be|see|grow|give|raise|return|break)\b", re.IGNORECASE)
#: An absolute path on one machine (a user's home, a work or temporary folder).
MACHINE_PATH = re.compile(r"(?<![\w.~$])/(?:work|tmp|home|Users|root|mnt|private/var)/")
#: The Python files the scan reads besides the package: scripts users and maintainers run.
SCRIPTS = ("benchmarks", "docs/scripts")


def _prose(path: Path):
    """(line, text) of every comment and string literal (docstrings included) of a Python file."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    for tok in tokens:
        if tok.type in (tokenize.COMMENT, tokenize.STRING):
            yield tok.start[0], tok.string


def _text_files():
    files = sorted(PACKAGE.rglob("*.py"))
    root = PACKAGE.parent.parent
    for folder in SCRIPTS:
        if (root / folder).is_dir():
            files += sorted((root / folder).rglob("*.py"))
    return files


def _offences(pattern: re.Pattern, files) -> list[str]:
    out = []
    for path in files:
        for line, text in _prose(path):
            for m in pattern.finditer(text):
                out.append(f"{path.name}:{line + text[:m.start()].count(chr(10))}: {m.group(0)!r}")
    return out


def test_the_text_scan_finds_what_it_looks_for(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('x = 1  # the cache used to grow without bound (issue 12)\n'
                      'def f():\n    """Reads /work/shared/data.csv; planned: a lazy path."""\n'
                      'raise NotImplementedError("the lazy path")\n', encoding="utf-8")
    assert len(_offences(NARRATION, [sample])) == 3
    assert _offences(MACHINE_PATH, [sample]) == ["sample.py:3: '/work/'"]


def test_no_comment_or_docstring_narrates_history():
    offences = _offences(NARRATION, _text_files())
    assert not offences, "narrating comments or docstrings:\n" + "\n".join(offences)


def test_no_absolute_machine_path_in_code_or_docstrings():
    offences = _offences(MACHINE_PATH, _text_files())
    assert not offences, "absolute machine paths:\n" + "\n".join(offences)


# --------------------------------------------------------------------------- the architecture page
ARCHITECTURE = Path(__file__).parents[1] / "docs" / "architecture.md"


def test_every_module_has_a_line_on_the_architecture_page():
    rows = [line for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    listed = {line.split("`")[1] for line in rows}
    # every module and package at every depth, as its path below src/mcda (packages end in "/")
    modules = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if p.name != "__init__.py"
               and "_kernels/" not in p.relative_to(PACKAGE).as_posix()[len("_core/"):]
               and "present/plots/" not in p.relative_to(PACKAGE).as_posix()}
    modules |= {f"{p.relative_to(PACKAGE).as_posix()}/" for p in PACKAGE.rglob("*")
                if p.is_dir() and (p / "__init__.py").exists()
                and not p.relative_to(PACKAGE).as_posix().startswith(("_core/_kernels/", "present/plots/"))}
    missing = sorted(modules - listed - {"__init__.py"}) + sorted({"mcda/__init__.py"} - listed)
    assert not missing, f"modules without a line in docs/architecture.md: {missing}"
    stale = sorted(listed - modules - {"mcda/__init__.py"})
    assert not stale, f"lines in docs/architecture.md for modules that do not exist: {stale}"


# --------------------------------------------------------------------------- the result bases
def _public_classes():
    """Every public class defined in a module of mcda (the ingestion engine aside), found by walking the package."""
    import importlib
    import pkgutil

    for info in pkgutil.walk_packages(mcda.__path__, "mcda."):
        if info.name.startswith("mcda.ingest") or info.name == "mcda.__main__":
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if not name.startswith("_") and isinstance(value, type) and value.__module__ == info.name:
                yield info.name, name, value


def test_every_public_result_class_subclasses_result():
    from mcda._core.results import Result

    # a result is what a statistic returns: a class with a tidy table (``to_frame``) or named ``...Result``
    results = [(module, name, cls) for module, name, cls in _public_classes()
               if hasattr(cls, "to_frame") or name.endswith("Result")]
    assert len(results) > 30  # the walk found the results
    offences = [f"{module}.{name}" for module, name, cls in results if not issubclass(cls, Result)]
    assert not offences, f"public result classes that do not derive from mcda._core.results.Result: {offences}"


# --------------------------------------------------------------------------- one ranker, one orientation
def _calls_and_compares(path: Path):
    return ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))


def _called_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def test_no_rankdata_call_outside_the_ranker():
    home = PACKAGE / "_core" / "numeric.py"
    offences = [f"{path.relative_to(PACKAGE)}:{node.lineno}" for path in sorted(PACKAGE.rglob("*.py")) if path != home
                for node in _calls_and_compares(path)
                if isinstance(node, ast.Call) and _called_name(node) == "rankdata"]
    assert not offences, ("rank through mcda._core.numeric.rank (the one tie rule), not rankdata: "
                          + ", ".join(offences))


DIRECTION_WORDS = {"higher_is_better", "lower_is_better"}


def _direction_literals(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in DIRECTION_WORDS
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_direction_literals(e) for e in node.elts)
    return False


def test_no_direction_string_comparison_outside_the_orientation_helper():
    home = PACKAGE / "data" / "cards.py"
    offences = [f"{path.relative_to(PACKAGE)}:{node.lineno}" for path in sorted(PACKAGE.rglob("*.py")) if path != home
                for node in _calls_and_compares(path)
                if isinstance(node, ast.Compare) and any(_direction_literals(side)
                                                          for side in [node.left, *node.comparators])]
    assert not offences, ("compare directions through mcda.data.cards (direction_sign, higher_is_better, "
                          "DIRECTIONS), not by their strings: " + ", ".join(offences))


#: The layers that compute or present statistics; none of them may load the ingestion engine.
NO_INGESTION = ("_core", "data", "stats", "present")


def test_no_statistics_or_presentation_module_imports_the_ingestion_engine():
    offences = sorted(f"{importer} imports {imported}{'.' + name if name else ''}"
                      for importer, imported, name in _imports(_modules())
                      if importer.split(".")[1:2] and importer.split(".")[1] in NO_INGESTION
                      and (imported.startswith(("mcda.ingest", "mcda.store"))
                           or (imported == "mcda" and name in ("store", "ingest"))))
    assert not offences, "only app/ and the public namespaces may import mcda.ingest or mcda.store:\n" + "\n".join(offences)


def test_a_summary_and_a_friedman_test_leave_ingestion_and_matplotlib_unloaded():
    code = textwrap.dedent("""
        import sys
        import mcda
        cube = mcda.score_cube({f"d{i}": {"a": [0.5 + 0.01 * i, 0.6], "b": [0.4, 0.45 + 0.01 * i], "c": [0.3, 0.35]}
                                for i in range(8)}, metric="accuracy")
        mcda.summary(cube)
        mcda.friedman_test(mcda.datasets.load("demsar2006"))
        print(" ".join(sorted(m for m in sys.modules
                              if m.split(".")[0] == "matplotlib" or m == "mcda.store" or m.startswith("mcda.ingest"))))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PACKAGE.parent), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr
    loaded = run.stdout.split()
    assert not loaded, f"statistics loaded the ingestion engine or matplotlib: {loaded}"


# --------------------------------------------------------------------------- messages are not an interface
TEXT_READERS = {"replace", "startswith", "endswith", "sub", "subn", "match", "fullmatch", "search", "findall",
                "partition", "find"}  # (split() alone only re-spaces a message for one line)


def _message_text(node: ast.AST, caught: set[str]) -> bool:
    """Whether ``node`` is an error's or a reason's text: str(<caught exception>), <x>.args, or a reason."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
        inner = node.args[0]
        return isinstance(inner, ast.Name) and inner.id in caught
    if isinstance(node, ast.Attribute) and node.attr == "args":
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "astype":
        return _message_text(node.func.value, caught)
    if isinstance(node, ast.Subscript):
        return _message_text(node.value, caught)
    return isinstance(node, (ast.Name, ast.Attribute)) and "reason" in ast.unparse(node).lower()


def _rewrites(tree: ast.AST) -> list[int]:
    caught = {h.name for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler) and h.name}
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in TEXT_READERS):
            continue
        subjects = [node.func.value, *node.args[:2]]
        if any(_message_text(s, caught) for s in subjects):
            out.append(node.lineno)
    return out


def test_the_rewrite_scan_finds_what_it_looks_for():
    sample = ('try:\n    f()\nexcept ValueError as exc:\n    raise ValueError(str(exc).replace("a", "b"))\n'
              'ok = np.char.startswith(reason.astype(str), "every")\n'
              'fine = "a-b".replace("-", "_")\n')
    assert sorted(_rewrites(ast.parse(sample))) == [4, 5]


def _phrase_tables(tree: ast.AST) -> list[int]:
    """Lines that rewrite text through a table of phrases: ``for a, b in TABLE: text = text.replace(a, b)``."""
    out = []
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.comprehension)):
            continue
        targets = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        body = loop.body if isinstance(loop, ast.For) else []
        for node in (n for stmt in body for n in ast.walk(stmt)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in TEXT_READERS and node.args \
                    and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "os") \
                    and any(isinstance(a, ast.Name) and a.id in targets for a in node.args[:1]):
                out.append(node.lineno)
    return out


def _text_replaces(tree: ast.AST) -> list[int]:
    """Lines that call ``.replace(`` on anything but ``os`` (a file move)."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace"
            and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "os")]


def test_the_phrase_table_scan_finds_the_old_cli_rewrite():
    # the command line once rewrote every library message through 17 phrase pairs (issue 32)
    sample = textwrap.dedent("""
        _OPTION_WORDS = (("`control`", "--control"), ("selected_epochs()", "the report"))
        def _option_words(message):
            for library, option in _OPTION_WORDS:
                message = message.replace(library, option)
            return message
        for path in paths:
            os.replace(path, target)
        """)
    tree = ast.parse(sample)
    assert _phrase_tables(tree) == [5] and _text_replaces(tree) == [5]


def test_no_code_reads_or_rewrites_message_text():
    offences = [f"{path.relative_to(PACKAGE)}:{line}" for path in sorted(PACKAGE.rglob("*.py"))
                for line in _rewrites(ast.parse(path.read_text(encoding="utf-8")))]
    assert not offences, ("errors and reasons are data (argument, value, allowed; Reason codes): no .replace / "
                          ".startswith / regex on their text: " + ", ".join(offences))
    tables = [f"{path.relative_to(PACKAGE)}:{line}" for path in sorted(PACKAGE.rglob("*.py"))
              for line in _phrase_tables(ast.parse(path.read_text(encoding="utf-8")))]
    assert not tables, "text rewritten through a table of phrases (make the phrases data): " + ", ".join(tables)
    # the command line renders errors and warnings from their fields (Marked.render with FLAGS): it
    # replaces no text at all
    cli = _text_replaces(ast.parse((PACKAGE / "app" / "cli.py").read_text(encoding="utf-8")))
    assert not cli, f"app/cli.py rewrites text with .replace at lines {cli}"


ERROR_CLASSES = {"McdaArgumentError", "McdaArgumentTypeError"}


def _error_classes(trees) -> set[str]:
    """McdaArgumentError, McdaArgumentTypeError and every class in the package derived from them."""
    found = set(ERROR_CLASSES)
    while True:
        more = {node.name for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                and any(isinstance(b, (ast.Name, ast.Attribute)) and (b.id if isinstance(b, ast.Name) else b.attr)
                        in found for b in node.bases)}
        if more <= found:
            return found
        found |= more


def _raised_without_argument(tree: ast.AST, classes: set[str]) -> list[int]:
    """Lines that build an argument error without passing ``argument`` (``argument_error``: its first parameter)."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else None
        keywords = {k.arg for k in node.keywords}
        if name in classes and "argument" not in keywords and None not in keywords:
            out.append(node.lineno)
        elif name == "argument_error" and not node.args and "argument" not in keywords:
            out.append(node.lineno)
    return out


def test_the_argument_scan_finds_a_raise_without_argument():
    sample = ('raise McdaArgumentError("`alpha` must lie in (0, 1)")\n'
              'raise McdaArgumentError("`alpha` must lie in (0, 1)", argument="alpha")\n'
              'raise errors.McdaArgumentTypeError("no", value=1)\n'
              'raise argument_error("rope", "`rope` must be >= 0")\n'
              'class PageError(McdaArgumentError):\n    pass\n'
              'raise PageError("`page` must be 1")\n')
    tree = ast.parse(sample)
    classes = _error_classes([tree])
    assert "PageError" in classes and _raised_without_argument(tree, classes) == [1, 3, 7]


def test_every_argument_error_names_its_argument():
    # the argument at fault is data the raiser passes (None: the data as a whole), never read back
    # from the message (issue 32)
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))}
    classes = _error_classes(trees.values())
    assert {"CardError", "UnknownMetricError", "PageOutOfRange"} <= classes
    offences = [f"{path.relative_to(PACKAGE)}:{line}" for path, tree in trees.items()
                for line in _raised_without_argument(tree, classes)]
    assert not offences, "argument errors raised without argument=: " + ", ".join(offences)


def test_no_isinstance_over_mcda_types_where_pair_decisions_are_read():
    # letters and the presentation read results through their protocols (``pair_decisions()``, the
    # OmnibusResult fields), never by asking which mcda class a result is
    files = sorted((PACKAGE / "present").rglob("*.py")) + [PACKAGE / "stats" / "across" / "letters.py"]
    offences = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        ours = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and (node.module or "").startswith("mcda") for alias in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                    and len(node.args) == 2:
                kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
                named = [k.id for k in kinds if isinstance(k, ast.Name) and k.id in ours]
                if named:
                    offences.append(f"{path.relative_to(PACKAGE)}:{node.lineno} isinstance over {named}")
    assert files and not offences, "\n".join(offences)


def _literal_strings(node) -> list[str] | None:
    """The string elements of a dict (its keys), tuple or set literal; None for any other node."""
    if isinstance(node, ast.Dict):
        elements = node.keys
    elif isinstance(node, (ast.Tuple, ast.Set)):
        elements = node.elts
    else:
        return None
    return [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def test_no_table_of_procedure_names_outside_the_registry():
    from mcda.stats.procedures import PROCEDURES

    # one-letter spellings ("t", the alias "f" of Finner) are left out: a table of characters (a
    # LaTeX width table) is not a table of procedures; every longer name and alias counts
    spelt = {s for s in set(PROCEDURES) | {alias for entry in PROCEDURES.values() for alias in entry.aliases}
             if len(s) > 1}
    offences = []
    for name, path in _modules().items():
        if name == "mcda.stats.procedures":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            strings = _literal_strings(node)
            named = [s for s in strings or () if s in spelt]
            if len(named) >= 3:
                offences.append(f"{name}:{node.lineno} {named}")
    assert not offences, "procedure names kept outside mcda.stats.procedures:\n" + "\n".join(offences)


def test_the_table_scan_finds_a_table():
    tree = ast.parse('X = {"holm": 1, "finner": 2, "rom": 3}\nY = ("nemenyi", "shaffer", "li")\nZ = ("a", "holm")')
    found = [s for s in map(_literal_strings, ast.walk(tree)) if s]
    assert ["holm", "finner", "rom"] in found and ["nemenyi", "shaffer", "li"] in found


def test_every_registered_procedure_has_a_display_name_references_and_a_function():
    from mcda.present.writeup import BIBTEX
    from mcda.stats.procedures import PROCEDURES, load

    for name, entry in PROCEDURES.items():
        assert entry.display and entry.words, name
        assert entry.references and set(entry.references) <= set(BIBTEX), (name, entry.references)
        assert callable(load(name)), name


#: What the introspection below passes for a public function's data arguments, by their name.
def _sample_arguments():
    rng = np.random.default_rng(0)
    return {"scores": rng.random((12, 4)), "x": rng.random(8), "y": rng.random(8), "pvalues": [0.01, 0.02, 0.03],
            "n_methods": 4, "n_datasets": 12, "control": "method_0", "direction": "higher_is_better"}


def _procedure_arguments():
    """(function, argument, blamed, allowed) for every public callable of ``mcda`` whose ``test=``, ``adjust=``,
    ``method=`` or ``pairwise_method=`` is checked against a list: read from the McdaArgumentError a bogus
    value raises (its ``argument`` and ``allowed``), so the values are those the validator itself accepts,
    not a list kept here. A callable taking ``**settings`` (mcda.Report) is asked its settings the same way
    (the error an unknown setting raises lists them)."""
    import inspect

    sample = _sample_arguments()
    found = []
    for name in sorted(mcda.__all__):
        function = getattr(mcda, name)
        if not callable(function) or (inspect.isclass(function) and issubclass(function, BaseException)):
            continue
        try:
            inspect.signature(function)
        except (TypeError, ValueError):
            continue
        parameters = dict(inspect.signature(function).parameters)
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
            required = {p: sample[p] for p, spec in parameters.items() if spec.default is inspect.Parameter.empty
                        and p in sample}
            try:
                function(**required, __no_such_setting__=1)
            except mcda.McdaArgumentError as error:
                parameters.update({s: inspect.Parameter(s, inspect.Parameter.KEYWORD_ONLY, default=None)
                                   for s in error.allowed or () if isinstance(s, str)})
            except TypeError:
                pass
        for argument in ("test", "adjust", "method", "pairwise_method"):
            if argument not in parameters:
                continue
            given = {p: sample[p] for p, spec in parameters.items() if p in sample and p != argument
                     and (spec.default is inspect.Parameter.empty or (spec.default is None and p != "control"))}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    function(**given, **{argument: "__not_a_procedure__"})
                except mcda.McdaArgumentError as error:
                    found.append((name, argument, error.argument, error.allowed))
                    continue
            found.append((name, argument, None, None))
    return found


def test_every_accepted_test_and_adjust_value_is_registered():
    from mcda.present.writeup import BIBTEX
    from mcda.stats.procedures import PROCEDURES

    found = _procedure_arguments()
    checked = {(name, argument) for name, argument, _, _ in found}
    # the introspection reaches the functions it must (a guard that it reads what it claims)
    assert {("compare_over_datasets", "test"), ("all_pairs_test", "adjust"), ("two_on_multiple", "test"),
            ("paired_tests", "method"), ("adjust_pvalues", "method"), ("durbin_test", "adjust"),
            ("Report", "test"), ("Report", "pairwise_method")} <= checked
    for name, argument, blamed, allowed in found:
        if argument in ("method", "pairwise_method") and not (allowed and set(allowed) & set(PROCEDURES)):
            continue  # a method= that names no procedure (the Bayesian sign test's "exact" / "sampling")
        where = f"{name}({argument}=)"
        assert blamed == argument and allowed, f"{where} takes a bogus value without naming the allowed ones"
        for value in allowed:
            if value is None:
                continue  # None: no adjustment (no procedure to register)
            entry = PROCEDURES.get(value)
            assert entry is not None, f"{where} accepts the unregistered {value!r}"
            assert entry.display and entry.references and set(entry.references) <= set(BIBTEX), (where, value)
