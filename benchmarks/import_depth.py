"""The longest chain of imports between mcda's own modules, on this tree or on a git commit.

A chain a -> b -> c means module a imports b, which imports c. Two graphs are measured: the
imports run when a module is loaded (module level, ``if TYPE_CHECKING`` blocks aside) and every
import, deferred ones inside functions included (the design's graph, as tests/test_architecture.py
reads it). Imports of the package itself (``import mcda``) are left out: ``mcda/__init__.py``
loads its names on first use.

Run from the repository root::

    python benchmarks/import_depth.py                # this tree
    python benchmarks/import_depth.py --ref 4b060b4  # a commit, read with git show
"""

from __future__ import annotations

import argparse
import ast
import functools
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sources(ref: str | None) -> dict[str, str]:
    """{path below src/: text} of every module of mcda, from the work tree or from commit ``ref``."""
    if ref is None:
        return {p.relative_to(ROOT / "src").as_posix(): p.read_text(encoding="utf-8")
                for p in (ROOT / "src" / "mcda").rglob("*.py")}
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", ref, "src/mcda"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    return {n[len("src/"):]: subprocess.run(["git", "show", f"{ref}:{n}"], cwd=ROOT, check=True,
                                            capture_output=True, text=True).stdout
            for n in names if n.endswith(".py")}


def module_name(path: str) -> str:
    parts = path[: -len(".py")].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _eager(tree: ast.Module):
    """The statements run when the module loads: the body, into if / try blocks, not into defs or classes."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                stack.extend(getattr(node, field, []))
        if isinstance(node, ast.ExceptHandler):
            stack.extend(node.body)


def graph(texts: dict[str, str], eager: bool) -> dict[str, set[str]]:
    modules = {module_name(p): p for p in texts}
    out: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        tree = ast.parse(texts[path])
        nodes = _eager(tree) if eager else ast.walk(tree)
        for node in nodes:
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = name.split(".") if path.endswith("__init__.py") else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target for a in node.names]
            for target in targets:
                if target in modules and target not in (name, "mcda"):
                    out[name].add(target)
    return out


def longest_chain(g: dict[str, set[str]]) -> list[str]:
    """The longest path of the (acyclic) graph, as its modules."""

    @functools.lru_cache(maxsize=None)
    def from_(m: str) -> tuple[str, ...]:
        best = max((from_(n) for n in g[m]), key=len, default=())
        return (m, *best)

    return list(max((from_(m) for m in sorted(g)), key=len))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", help="a git commit to measure instead of the work tree")
    args = parser.parse_args()
    texts = sources(args.ref)
    for eager, label in ((True, "loaded at import"), (False, "every import, deferred ones included")):
        chain = longest_chain(graph(texts, eager))
        print(f"{label}: {len(chain) - 1} imports deep: {' -> '.join(chain)}")


if __name__ == "__main__":
    main()
