"""``python -m tsume``: the command line."""
from .cli import run

run()
