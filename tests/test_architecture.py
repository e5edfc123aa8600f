"""The import graph: adapters and the command line -> core (bot/) -> knowledge, and no circle;
and only knowledge/ touches the database.

Every import counts, at the top of a module, inside a function (a lazy import
is still a dependency) or under `if TYPE_CHECKING:` (a type-only import is still
a dependency a reader follows: a circle through one is a circle).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "knowledge", "adapters")
PLATFORM_LIBRARIES = {"telegram", "discord", "httpx", "aiohttp"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(tree: ast.AST, package: str) -> set[str]:
    """Dotted names imported anywhere in the module (`from a import b` gives a.b and a)."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return names


def import_graph() -> dict[str, set[str]]:
    """Our modules and what each imports: our modules by name, other libraries by top-level name."""
    files = {module_name(p): p for pkg in PACKAGES for p in sorted((REPO / pkg).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for imported in imported_names(ast.parse(path.read_text(encoding="utf-8"), str(path)), package):
            if imported in files:
                targets.add(imported)
            elif imported.split(".")[0] not in PACKAGES:
                targets.add(imported.split(".")[0])
        targets.discard(name)
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle among our modules, as a path that ends where it starts; None if there is none."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = finished
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := walk(start)):
            return found
    return None


def forbidden_edges(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for module, targets in sorted(graph.items()):
        layer = module.split(".")[0]
        for target in sorted(targets):
            top = target.split(".")[0]
            if layer in ("bot", "knowledge") and (top == "adapters" or top in PLATFORM_LIBRARIES):
                wrong.append(f"{module} imports {target}")
            if layer == "knowledge" and top == "bot":
                wrong.append(f"{module} imports {target}")
    return wrong


def test_no_import_circle():
    graph = import_graph()
    assert "adapters.cli" in graph and "bot.core" in graph and "knowledge.store" in graph  # it read the code
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_dependencies_point_from_adapters_to_core_to_knowledge():
    assert forbidden_edges(import_graph()) == []


# The core that drives answering: what bot/answering/ must never import (it gets a Turn and a Session instead).
DRIVERS = ("bot.core", "bot.app", "bot.admin", "bot.broadcast", "bot.evaluation", "bot.conversation_eval")


def test_answering_imports_nothing_of_the_core():
    graph = import_graph()
    answering = [m for m in graph if m == "bot.answering" or m.startswith("bot.answering.")]
    assert "bot.answering.intents" in answering and "bot.answering.following" in answering  # it read the package
    assert [f"{m} imports {t}" for m in sorted(answering) for t in sorted(graph[m])
            if any(t == d or t.startswith(d + ".") for d in DRIVERS)] == []


def test_the_checks_catch_a_circle_and_a_core_module_importing_an_adapter():
    graph = {"bot.a": {"bot.b"}, "bot.b": {"knowledge.c", "telegram"}, "knowledge.c": {"bot.a"}}
    assert find_cycle(graph) == ["bot.a", "bot.b", "knowledge.c", "bot.a"]
    assert forbidden_edges(graph) == ["bot.b imports telegram", "knowledge.c imports bot.a"]
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import adapters.x\n"
                     "def f():\n    from adapters import serve\n    from . import y\n")
    assert imported_names(tree, "bot") == {"typing", "typing.TYPE_CHECKING", "adapters", "adapters.x", "adapters.serve",
                                           "bot", "bot.y"}  # a type-only import counts


# ------------------------------------------------------------------ the database stays in knowledge/
# Outside knowledge/ no module reaches the database itself: the store's named methods (store.outbox,
# store.leases, store.replies, store.admin, ...) are the one way in, so another store is one package.
# `store.transaction()` may be entered (a caller groups the store's writes), never bound to a name.
DATABASE_CALLS = {"execute", "executemany", "executescript", "backup", "cursor"}  # a connection's, called
DATABASE_ATTRIBUTES = {"conn", "lock"}  # the store's connection and its lock, read or written
DATABASE_LIBRARIES = {"sqlite3", "sqlite_utils"}  # imported, it is the database itself (its errors: STORE_ERRORS)
SQL = re.compile(r"\b(SELECT\b[\s\S]*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\"?\w+\"?\s+SET|DELETE\s+FROM|"
                 r"(CREATE|DROP|ALTER)\s+(TABLE|INDEX|VIEW|TRIGGER)|PRAGMA\s+\w|BEGIN\s+(IMMEDIATE|EXCLUSIVE|DEFERRED)|"
                 r"ROLLBACK\b|SAVEPOINT\s+\w)")


def database_touches(tree: ast.AST) -> list[str]:
    """Where a module reaches the database itself, as 'line: what' (an empty list: it goes through the store)."""
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if node.func.attr in DATABASE_CALLS:
                found.append(f"{line}: .{node.func.attr}(")
            elif node.func.attr == "connect" and isinstance(owner, ast.Name) and owner.id == "sqlite3":
                found.append(f"{line}: sqlite3.connect(")
            elif node.func.attr == "Database" and isinstance(owner, ast.Name) and owner.id == "sqlite_utils":
                found.append(f"{line}: sqlite_utils.Database(")
        elif isinstance(node, ast.Attribute) and node.attr in DATABASE_ATTRIBUTES:
            found.append(f"{line}: .{node.attr}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            found.extend(f"{line}: import {n}" for n in names if n.split(".")[0] in DATABASE_LIBRARIES)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            call = node.context_expr
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "transaction":
                found.append(f"{call.lineno}: with .transaction() as a connection")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
            found.append(f"{line}: SQL {SQL.search(node.value).group(0)[:40]!r}")
    return sorted(found, key=lambda touch: int(touch.split(":")[0]))


def modules_touching_the_database() -> dict[str, list[str]]:
    """Every module of bot/ and adapters/ that reaches the database itself, with where."""
    out = {}
    for package in ("bot", "adapters"):
        for path in sorted((REPO / package).rglob("*.py")):
            touches = database_touches(ast.parse(path.read_text(encoding="utf-8"), str(path)))
            if touches:
                out[module_name(path)] = touches
    return out


def test_only_knowledge_touches_the_database():
    store = REPO / "knowledge" / "outbox_rows.py"
    assert database_touches(ast.parse(store.read_text(encoding="utf-8")))  # it sees SQL where SQL is
    assert modules_touching_the_database() == {}


def test_the_database_check_catches_sql_a_connection_and_its_lock():
    code = ('import sqlite3\nimport sqlite_utils\n'
            'def f(store, path):\n'
            '    store.conn.execute("SELECT 1 FROM deliveries")\n'
            '    with store.lock:\n        pass\n'
            '    with store.transaction(knowledge=False) as conn:\n        conn.executemany(QUERY, [])\n'
            '    with store.transaction():\n        store.outbox.recover("telegram")\n'
            '    sqlite3.connect(path).close()\n'
            '    sqlite_utils.Database(path)\n'
            '    query = f"UPDATE replies SET state = {1}"\n'
            '    except_ok = (sqlite3.Error, "Select a board from the list", "update the status")\n')
    assert database_touches(ast.parse(code)) == [
        "1: import sqlite3", "2: import sqlite_utils", "4: .execute(", "4: SQL 'SELECT 1 FROM'", "4: .conn", "5: .lock",
        "7: with .transaction() as a connection", "8: .executemany(", "11: sqlite3.connect(", "12: sqlite_utils.Database(", "13: SQL 'UPDATE replies SET'"]
