"""Pure rules of the games Houston referees: no I/O, no clocks, no random numbers.

Each game is a subpackage exporting `GAME`; games/registry.py finds them. The package path is
extended over every `games/` folder on sys.path, so a game installed elsewhere is found too.
"""

from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)
