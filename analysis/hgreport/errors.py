"""The one error type of hgreport: an input the user must fix (exit status 2)."""
from pathlib import Path


class InputError(Exception):
    """A missing or invalid input file; the message names the file and the problem."""

    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = Path(path)
        self.problem = problem
