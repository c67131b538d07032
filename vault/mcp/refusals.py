"""Every anticipated failure of a tool becomes a tool error the model can read and act on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mcp.server.mcpserver.exceptions import ToolError

from vault.domain.errors import PrivacyRefused, VaultError
from vault.mcp.scope import OutOfScope


@contextmanager
def refusals() -> Iterator[None]:
    """`with refusals():` around a tool's body: bad input, a scope violation or a busy file is
    one clear message (`is_error`), never a crash of the server. The facade has already rolled
    back whatever the failing operation began, so nothing is half written."""
    try:
        yield
    except PrivacyRefused as error:
        raise ToolError(error.plain) from None  # a client of this server cannot vouch for text
    except (VaultError, OutOfScope) as error:
        raise ToolError(str(error)) from None
