"""games/ stays pure: no I/O, clocks, randomness or device code in the rules."""

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
FORBIDDEN = {"random", "secrets", "time", "os", "sqlite3", "socket", "device", "cv2", "gpiozero", "pygame",
             "paho", "picamera2", "subprocess", "threading", "pathlib", "io", "urllib", "numpy", "datetime"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("open", "__import__", "eval", "exec"):
            roots.add(f"builtin {node.func.id}")
    return roots


def test_no_module_under_games_imports_io_clocks_or_randomness():
    modules = sorted(GAMES.rglob("*.py"))
    assert len(modules) >= 5
    offenders = {
        str(p.relative_to(GAMES)): sorted(bad)
        for p in modules
        if (bad := imported_roots(p) & FORBIDDEN | {r for r in imported_roots(p) if r.startswith("builtin")})
    }
    assert offenders == {}


def test_the_check_itself_catches_a_forbidden_import(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("from random import choice\nimport os.path\nopen('x')\n")
    assert {"random", "os", "builtin open"} <= imported_roots(sneaky)
