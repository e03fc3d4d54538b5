"""The apps depend one way: common < players < games < tournaments < config. No module imports
from an app above its own, the engine (games/engine) imports nothing of the project, the
tournaments' draw (tournaments/draw) nothing but itself and two pure modules, neither loads
Django, and no migration depends on a migration of an app above, except the historical ones
listed here."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.db.migrations.loader import MigrationLoader

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["common", "players", "games", "tournaments", "config"]
ENGINE = ROOT / "games" / "engine"
DRAW = ROOT / "tournaments" / "draw"
# The project modules the draw may import: pure themselves (no Django), and loaded with it in
# test_pure_packages_load_nothing_of_django, which would see them change.
DRAW_MAY_IMPORT = {"common.numbers", "games.clock"}

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


def test_the_draw_imports_nothing_of_the_project_but_itself_and_pure_modules():
    project = set(LAYERS)
    wrong = {}
    files = sorted(DRAW.rglob("*.py"))
    assert len(files) > 1
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                inside = module == "tournaments.draw" or module.startswith("tournaments.draw.")
                if top == "django" or (
                    top in project and not inside and module not in DRAW_MAY_IMPORT
                ):
                    wrong.setdefault(str(path.relative_to(ROOT)), []).append(module)
    assert wrong == {}


@pytest.mark.parametrize(
    ("package", "may_import"),
    [(ENGINE, set()), (DRAW, DRAW_MAY_IMPORT)],
    ids=["games.engine", "tournaments.draw"],
)
def test_pure_packages_load_nothing_of_django(package, may_import):
    """Every module of the package, imported in a fresh interpreter without settings, loads no
    Django and nothing of the project outside the package but the pure modules it may import."""
    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in sorted(package.rglob("*.py"))
        if path.name != "__main__.py"
    ]
    script = (
        "import importlib, json, sys\n"
        f"for module in {modules!r}: importlib.import_module(module)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},  # no DJANGO_SETTINGS_MODULE
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    loaded = set(json.loads(run.stdout))
    assert set(modules) <= loaded
    allowed = set(modules) | may_import
    parents = {name.rsplit(".", depth)[0] for name in allowed for depth in range(1, 4)}
    outside = {
        name
        for name in loaded - allowed - parents
        if name.split(".")[0] in {"django", "rest_framework", *LAYERS}
    }
    assert outside == set()


def test_the_analysis_imports_only_the_engine_numpy_and_the_standard_library():
    """games/analysis (the evaluator, issue 23) is pure like the engine: its modules import the
    engine, each other, numpy and the standard library, and loaded in a fresh interpreter
    without settings they load nothing of Django."""
    package = ROOT / "games" / "analysis"
    files = sorted(package.rglob("*.py"))
    assert files
    wrong = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if not (
                    module.startswith(("games.engine", "games.analysis"))
                    or top == "numpy"
                    or top in sys.stdlib_module_names
                    or top == "__future__"
                ):
                    wrong.setdefault(str(path.relative_to(ROOT)), []).append(module)
    assert wrong == {}
    modules = [module_name(path) for path in files if path.name != "__main__.py"]
    script = (
        "import importlib, json, sys\n"
        f"for module in {modules!r}: importlib.import_module(module)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},  # no DJANGO_SETTINGS_MODULE
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    loaded = set(json.loads(run.stdout))
    assert set(modules) <= loaded
    outside = {
        name
        for name in loaded
        if name.split(".")[0] in {"django", "rest_framework", *LAYERS}
        and not name.startswith(("games.engine", "games.analysis"))
        and name != "games"
    }
    assert outside == set()


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


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, known: set[str]) -> set[str]:
    """The project modules of ``known`` that ``path`` imports, at the top or inside a function:
    ``from games.services import clock`` imports the module games.services.clock, ``from
    games.services.clock import x`` that module (not counting the packages a module import
    initialises on the way)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names}
            found.update(submodules & known or {node.module})
    return found & known


def import_circles(app: str) -> list[list[str]]:
    """The circles of imports between the modules of ``app`` (the engine's aside), each as the
    modules it passes through; none when the modules depend one way."""
    files = {module_name(path): path for path in sources(app)}
    graph = {name: imported_modules(path, set(files)) - {name} for name, path in files.items()}
    circles, state = [], dict.fromkeys(graph, "new")

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for target in sorted(graph[name]):
            if state[target] == "open":  # on the path that led here
                circles.append(path[path.index(target) :])
            elif state[target] == "new":
                visit(target, [*path, target])
        state[name] = "done"

    for name in sorted(graph):
        if state[name] == "new":
            visit(name, [name])
    return circles


def test_the_games_modules_import_each_other_in_no_circle():
    """Services publish tasks by name and share their steps through games/services/_steps.py,
    so games/tasks.py imports the services and nothing imports it back (docs/decisions.md D65)."""
    assert import_circles("games") == []


def test_the_games_services_steps_are_used_only_by_the_games_services():
    """games/services/_steps.py runs inside its caller's transaction: only the games services
    call it; every other module, tournaments' included, calls the public use-cases."""
    steps = "games.services._steps"
    users = {
        module_name(path)
        for app in LAYERS
        for path in sources(app)
        if steps in imported_modules(path, {steps})
    }
    assert users and all(name.startswith("games.services.") for name in users)
