"""Provider errors, classified once: what kind of failure, and whether a retry may help."""

from __future__ import annotations

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


def classify_error(exc: BaseException) -> tuple[str, bool]:
    """(kind, retryable) of an exception raised by a completion call."""
    for cls in type(exc).__mro__:
        if cls.__name__ in _ERROR_KINDS:
            return _ERROR_KINDS[cls.__name__]
    return "provider_error", False
