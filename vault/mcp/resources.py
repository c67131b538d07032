"""Resources: each served athlete's memory document (markdown), readable by URI."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote, unquote

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from vault.domain.errors import VaultError
from vault.mcp.port import VaultPort
from vault.mcp.scope import OutOfScope, Scope

TEMPLATE = "vault://athletes/{athlete_id}/memory"
DESCRIPTION = "Everything active the vault remembers about the athlete, as a markdown section."


def register_resources(server: MCPServer, port: VaultPort, scope: Scope) -> None:
    def document(athlete_id: str) -> str:
        try:
            return port.markdown(scope.athlete(unquote(athlete_id)))
        except OutOfScope as error:  # the same answer whether or not the athlete exists
            raise ResourceNotFoundError(str(error)) from None
        except VaultError as error:
            raise ResourceError(str(error)) from None

    server.resource(
        TEMPLATE, name="athlete_memory", mime_type="text/markdown", description=DESCRIPTION
    )(document)
    for athlete in scope.athletes:  # listed, so a client can offer them without guessing ids
        server.resource(
            TEMPLATE.format(athlete_id=quote(athlete, safe="")),
            name=f"memory of {athlete}",
            mime_type="text/markdown",
            description=DESCRIPTION,
        )(_reader(document, athlete))


def _reader(document: Callable[[str], str], athlete: str) -> Callable[[], str]:
    def read() -> str:
        return document(athlete)

    return read
