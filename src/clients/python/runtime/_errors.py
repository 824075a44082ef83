"""The errors a call can end with: one class per kind of the project's shared table of error kinds.

Every name here is the shared stem followed by ``Error``, as the TypeScript client spells it, so
that a kind is called the same in every library. No error carries the API key: not in its
message, not in its ``args``, not in any attribute.
"""

import builtins
from typing import Any, Dict, Mapping, Optional, cast


class ClientError(Exception):
    """Every error the library raises: catch it to catch them all."""


class InvalidFieldError(ClientError, builtins.ValueError):
    """A field was refused before anything was sent: missing, of another type, or outside a bound."""

    def __init__(self, action: str, field: str, expected: str, got: str) -> None:
        super().__init__(f"{action}: the field {field} must be {expected}; {got}.")
        self.action = action
        self.field = field
        self.expected = expected


class ServiceError(ClientError):
    """The service answered with an error body carrying a code.

    The base of each documented status's class, and the class of a status a later release documents.
    """

    def __init__(self, status: int, body: Mapping[str, Any], members: Mapping[str, str]) -> None:
        code = body.get(members["code"])
        message = body.get(members["message"])
        data = body.get(members["data"])
        self.status: int = status
        self.code: str = code if isinstance(code, str) else ""
        self.service_message: str = message if isinstance(message, str) else ""
        self.data: Dict[str, Any] = dict(cast(Dict[str, Any], data)) if isinstance(data, dict) else {}
        # Every member of the answer, those the contract does not name yet too.
        self.body: Dict[str, Any] = dict(body)
        super().__init__(f"HTTP {status} {self.code}: {self.service_message}".rstrip(": "))

    def member(self, name: str) -> Any:
        """A member of the error's details (its ``data``), or None when the answer does not carry it."""
        return self.data.get(name)


#: The longest part of a host's page an error quotes, in characters.
_QUOTED_PAGE_LIMIT = 200


class HostError(ClientError):
    """A host, firewall, CDN or proxy in front of the site answered instead of the service."""

    def __init__(self, status: int, content_type: str, location: Optional[str], page: str) -> None:
        self.status = status
        self.content_type = content_type
        self.location = location
        # Cut by character, never inside one, so that the excerpt is always valid text.
        self.page_excerpt = page[:_QUOTED_PAGE_LIMIT]
        where = f", sending to {location}" if location else ""
        super().__init__(
            f"HTTP {status}: the answer is not the service's ({content_type or 'no content type'}{where});"
            " a host, firewall, CDN or proxy in front of the site answered."
        )


class ThrottledError(ClientError):
    """The site kept asking to slow down, or asked to wait longer than the client waits: try again later."""

    def __init__(self, status: int, retry_after_seconds: Optional[float], attempts: int, reason: str) -> None:
        self.status = status
        self.retry_after_seconds = retry_after_seconds
        self.attempts = attempts
        super().__init__(f"HTTP {status}: {reason}.")


class NoAnswerError(ClientError):
    """No answer came on the last attempt; the action may have gone through, and a repeat is safe."""

    def __init__(self, message: str, attempts: int) -> None:
        self.attempts = attempts
        super().__init__(message)


class TimeoutError(NoAnswerError):  # noqa: A001 - the shared name of the kind, kept in this package's namespace.
    """The site did not answer within the timeout."""

    def __init__(self, timeout_seconds: float, attempts: int) -> None:
        self.timeout_seconds = timeout_seconds
        super().__init__(f"No answer within {timeout_seconds:g} s (attempt {attempts}); the action may have gone through, and a repeat is safe.", attempts)


class ConnectionError(NoAnswerError):  # noqa: A001 - the shared name of the kind.
    """The connection failed: a wrong address, a refused or a dropped connection."""

    def __init__(self, reason: str, attempts: int) -> None:
        self.reason = reason
        super().__init__(f"The connection failed (attempt {attempts}): {reason}; the action may have gone through, and a repeat is safe.", attempts)
