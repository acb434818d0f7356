"""Provider errors, classified once: what kind of failure, whether a retry may help, and how long
the provider asked us to wait (``Retry-After``)."""

from __future__ import annotations

import email.utils
import html
import re
import time
from typing import Any

from channel.errors import ScopewatchError


class ModelUnreachable(ScopewatchError):
    """A model whose calls all fail (connection refused, bad key, unknown model, ...): no call of the
    agent ever succeeded and it gave up. The session stops with this one line."""

DEAD_ENDPOINT = frozenset(
    {
        "connection",
        "auth",
        "permission_denied",
        "model_not_found",
        "bad_request",
        "provider_unavailable",
        "timeout",
        "no_completion",
    }
)
"""Failures that, before any call has succeeded, mean the endpoint is unusable: it refuses, or answers with
no completion at all, or never answers within ``--timeout`` however often it is retried (a rate limit is waited
out; a model that answers badly is a finding, not a dead endpoint)."""

_ERROR_KINDS: dict[str, tuple[str, bool]] = {
    # class name (anywhere in the exception's MRO, most specific first) -> (kind, retryable)
    "ContextWindowExceededError": ("context_window", False),
    "ContentPolicyViolationError": ("content_policy", False),
    "AuthenticationError": ("auth", False),
    "PermissionDeniedError": ("permission_denied", False),
    "NotFoundError": ("model_not_found", False),
    "BudgetExceededError": ("budget_exceeded", False),
    "UnsupportedParamsError": ("bad_request", False),
    "BadRequestError": ("bad_request", False),
    "RateLimitError": ("rate_limit", True),
    "Timeout": ("timeout", True),
    "APITimeoutError": ("timeout", True),
    "TimeoutError": ("timeout", True),
    "APIConnectionError": ("connection", True),
    "ServiceUnavailableError": ("provider_unavailable", True),
    "BadGatewayError": ("provider_unavailable", True),
    "InternalServerError": ("provider_unavailable", True),
    "APIError": ("provider_error", True),
}
"""``not_sent`` (:func:`classify_error`): litellm refused to build the request; the provider never saw it."""


_CONNECT_ERRORS = frozenset({"ConnectError", "ConnectionRefusedError", "ClientConnectorError", "gaierror"})
"""Causes that mean the host could not be reached at all (litellm reports some of them as a 500)."""


def classify_error(exc: BaseException) -> tuple[str, bool]:
    """(kind, retryable) of an exception raised by a completion call."""
    kind: tuple[str, bool] = ("provider_error", False)
    for cls in type(exc).__mro__:
        if cls.__name__ in _ERROR_KINDS:
            kind = _ERROR_KINDS[cls.__name__]
            break
    if kind[0] in ("provider_unavailable", "provider_error") and _refused(exc):
        return "connection", True
    if kind[0] == "bad_request" and _built_locally(exc):
        return "not_sent", False
    if kind[0] == "provider_unavailable" and UNREADABLE in str(exc):
        return "bad_reply", False
    return kind


UNREADABLE = "Invalid response object"
"""litellm's word for a whole reply (a 200) it could not read as a chat completion: ``bad_reply``, not retried (the
server answered; it would answer the same), read as an empty reply."""


def _built_locally(exc: BaseException) -> bool:
    """Whether litellm refused to build the request itself (a ``ValueError`` behind its ``BadRequestError``,
    e.g. history it cannot translate for the provider): nothing was sent, so the provider is not to blame."""
    return any(isinstance(cause, ValueError) for cause in _causes(exc)[1:])


def _refused(exc: BaseException) -> bool:
    """Whether the chain of causes of ``exc`` holds a failure to connect."""
    return any(type(cause).__name__ in _CONNECT_ERRORS for cause in _causes(exc))


def _causes(exc: BaseException) -> list[BaseException]:
    seen: set[int] = set()
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def describe_error(exc: BaseException, limit: int = 400) -> str:
    """``Class: message`` of a provider error as one line (of at most ``limit`` characters, without the Python
    traceback litellm puts in some messages); for a failure to connect, of its innermost cause
    (``ConnectionRefusedError: [Errno 111] Connect call failed ...``), which says what happened. An error
    body that is no JSON (text/plain, an HTML error page) is not in litellm's message ("Error code: 400"):
    its first line of text follows, as the provider said it (:func:`body_line`)."""
    shown = exc
    if _refused(exc):
        shown = _causes(exc)[-1]
    if classify_error(exc)[0] == "not_sent":
        local = next(cause for cause in _causes(exc)[1:] if isinstance(cause, ValueError))
        text = f"litellm built no request (nothing was sent): {type(local).__name__}: {local}"
    else:
        text = f"{type(shown).__name__}: {str(shown) or _UNSAID.get(classify_error(shown)[0], 'no message')}"
        said = body_line(exc)
        if said and said not in text:
            text += f": {said}"
    line = " ".join(text.split(TRACEBACK)[0].split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


TRACEBACK = "Traceback (most recent call last)"

_UNSAID = {"timeout": "timed out"}
"""What an error whose text is empty (``asyncio.TimeoutError``'s) is said to be, by kind."""

BODY_LINE_CHARS = 200
"""The most of a non-JSON error body quoted in a failure's one line."""


def body_line(exc: BaseException) -> str:
    """The first line of text of an error's HTTP body when it is no JSON (the SDK keeps it as a string):
    an HTML page's tags dropped (nginx's 502 page says "502 Bad Gateway"), cut to :data:`BODY_LINE_CHARS`."""
    body = next((b for c in _causes(exc) if isinstance(b := getattr(c, "body", None), str) and b.strip()), None)
    if body is None:
        try:
            response = getattr(exc, "response", None)
            if "json" not in str(getattr(response, "headers", {}).get("content-type", "")):
                body = getattr(response, "text", None)
        except Exception:  # a streamed response not read: nothing to quote
            body = None
    if not isinstance(body, str) or not body.strip():
        return ""
    if body.lstrip().startswith("<"):
        body = re.sub(r"(?is)<(script|style)\b.*?</\1>", "\n", body)
        body = html.unescape(re.sub(r"<[^>]*>", "\n", body))
    line = next((" ".join(part.split()) for part in body.splitlines() if part.strip()), "")
    return line if len(line) <= BODY_LINE_CHARS else line[: BODY_LINE_CHARS - 1] + "…"


def retry_after(exc: BaseException, now: float | None = None) -> float | None:
    """Seconds the provider asked to wait before retrying (a ``Retry-After`` or ``retry-after-ms``
    header on the error's HTTP response, as seconds or an HTTP date); None when it did not say."""
    headers: Any = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None or not hasattr(headers, "get"):
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
    except (TypeError, ValueError):
        pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        pass
    try:
        when = email.utils.parsedate_to_datetime(str(value))
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))
