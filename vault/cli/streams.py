"""Reading bounded input: a file or stdin, line by line, no line longer than MAX_DOCUMENT_BYTES.

`vault import` and `vault episode import` read JSON Lines this way, so `vault import /dev/zero`
stops at once instead of filling memory.
"""

from __future__ import annotations

import os
import sys
from typing import IO, Any

from vault.cli.app import CliError
from vault.domain.errors import InvalidInput

MAX_DOCUMENT_BYTES = 16 * 1024 * 1024  # one document, or one line of a stream


class open_binary:  # noqa: N801 - used as a context manager
    """PATH opened for binary reading, or stdin for `-` (left open)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> IO[bytes]:
        if self.path == "-":
            self.stream: IO[bytes] = sys.stdin.buffer
            self.owned = False
        else:
            self.stream = open(self.path, "rb")
            self.owned = True
        return self.stream

    def __exit__(self, *_: Any) -> None:
        if self.owned:
            self.stream.close()


def read_line(stream: IO[bytes], path: str, number: int) -> bytes:
    """The next line (b"" at the end); longer than MAX_DOCUMENT_BYTES is one CliError."""
    line = stream.readline(MAX_DOCUMENT_BYTES + 1)
    if len(line) > MAX_DOCUMENT_BYTES:
        raise CliError(
            f"{path} line {number} is longer than the {MAX_DOCUMENT_BYTES >> 20} MB "
            "a document may hold"
        )
    return line


def stream_size(stream: IO[bytes]) -> int:
    """The file's size in bytes (a progress bar's length), 0 for a pipe."""
    try:
        return os.fstat(stream.fileno()).st_size
    except (OSError, ValueError, AttributeError):
        return 0  # a pipe: no bar


def decode(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidInput(f"{where} is not valid UTF-8 (byte {error.start})") from None
