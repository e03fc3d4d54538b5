"""The apps depend one way: common < players < games < tournaments < config. No module imports
from an app above its own, the engine (games/engine) imports nothing of the project, and no
migration depends on a migration of an app above, except the historical ones listed here."""

import ast
from pathlib import Path

import pytest
from django.db.migrations.loader import MigrationLoader

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["common", "players", "games", "tournaments", "config"]
ENGINE = ROOT / "games" / "engine"

# Migrations of an app below that depend on an app above: from before the apps were layered
# (games 0001 needs the players then in tournaments), and the move of the players out of
# tournaments (players 0001 runs after the migration that created their tables). No new ones.
HISTORICAL_UPWARD_DEPENDENCIES = {
    (("games", "0001_initial"), ("tournaments", "0001_initial")),
    (("players", "0001_initial"), ("tournaments", "0004_owed_task")),
}


def imported_apps(path: Path, package: str) -> set[str]:
    """The top-level names of the modules that ``path`` (in ``package``) imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(package if node.level else (node.module or "").split(".")[0])
    return names


def sources(app: str) -> list[Path]:
    return sorted(path for path in (ROOT / app).rglob("*.py") if ENGINE not in path.parents)


@pytest.mark.parametrize("app", LAYERS[:-1])
def test_no_module_imports_from_an_app_above_its_own(app):
    above = set(LAYERS[LAYERS.index(app) + 1 :])
    files = sources(app)
    assert files
    wrong = {
        str(path.relative_to(ROOT)): sorted(names & above)
        for path in files
        if (names := imported_apps(path, app)) & above
    }
    assert wrong == {}


def test_the_engine_imports_nothing_of_the_project():
    project = set(LAYERS)
    wrong = {}
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                if module.split(".")[0] in project and not module.startswith("games.engine"):
                    wrong.setdefault(str(path.relative_to(ROOT)), []).append(module)
    assert wrong == {}


def test_no_migration_depends_on_an_app_above_except_the_historical_ones():
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    upward = {
        (node, parent.key)
        for node in graph.nodes
        if node[0] in LAYERS
        for parent in graph.node_map[node].parents
        if parent.key[0] in LAYERS and LAYERS.index(parent.key[0]) > LAYERS.index(node[0])
    }
    assert upward == HISTORICAL_UPWARD_DEPENDENCIES
