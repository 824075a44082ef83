"""The part of the client that is the same whatever the contract says.

The endpoint's URL from a site's base URL, the courtesy pace per site, the attempts with their
timeout, ``Retry-After`` and backoff, and the answer read into a result or an error. The
generated part hands it the contract's facts (a description) and the class of each documented
error status. The API key is held in an object whose ``repr`` hides it, and is put into the
request body only at the moment the body is sent.
"""

import email.utils
import http.client
import json
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Type

from ._errors import ConnectionError, HostError, ServiceError, ThrottledError, TimeoutError
from ._fields import check_fields

Description = Mapping[str, Any]
ErrorClasses = Mapping[int, Type[ServiceError]]


class AttemptReport(Dict[str, Any]):
    """One attempt to send an action, as the ``on_attempt`` hook receives it.

    Its keys are the members every library reports each attempt with: ``action``, ``attempt``,
    ``outcome`` (``answered``, ``timeout`` or ``connection``), ``status`` (None without an answer),
    ``seconds`` and ``retry_in_seconds`` (None after the last attempt). The key is never among them.
    """


AttemptHook = Callable[[AttemptReport], None]


class _Secret:
    """The API key, kept out of every ``repr``, ``str`` and traceback's locals."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "<API key hidden>"

    __str__ = __repr__

    def __reduce__(self) -> Tuple[Any, ...]:
        raise TypeError("The API key is not pickled.")


class _SiteTurns:
    """The courtesy pace of one site: the earliest moment the next request may leave."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._not_before = 0.0

    def take(self, pace: float) -> None:
        with self._lock:
            now = time.monotonic()
            start = max(now, self._not_before)
            self._not_before = start + pace
        if start > now:
            time.sleep(start - now)

    def hold_back(self, seconds: float) -> None:
        with self._lock:
            self._not_before = max(self._not_before, time.monotonic() + seconds)


_sites: Dict[str, _SiteTurns] = {}
_sites_lock = threading.Lock()


def _turns_of(endpoint: str) -> _SiteTurns:
    with _sites_lock:
        turns = _sites.get(endpoint)
        if turns is None:
            turns = _SiteTurns()
            _sites[endpoint] = turns
        return turns


def endpoint_url(base_url: str, endpoint_path: str, rest_prefix: str) -> str:
    """The endpoint's URL from the site's base URL, its endpoint's URL, or its ``?rest_route=`` form."""
    if not isinstance(base_url, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError("The site's base URL must be a string, such as https://shop.example.")
    parts = urllib.parse.urlsplit(base_url)
    if parts.scheme not in ("https", "http") or parts.netloc == "":
        raise ValueError(f"The site's base URL must be a whole URL starting with https:// (or http:// for a local test site); got {base_url!r}.")
    if parts.username is not None or parts.password is not None:
        raise ValueError("The site's base URL must not carry a user name or password.")
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    if any(name == "rest_route" for name, _ in query):
        route = endpoint_path[len(rest_prefix):] if endpoint_path.startswith(rest_prefix + "/") else endpoint_path
        # WordPress reads the route's slashes unescaped.
        rebuilt = "&".join(
            f"rest_route={route}" if name == "rest_route" else urllib.parse.urlencode([(name, value)]) for name, value in query
        )
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, rebuilt, ""))
    path = parts.path.rstrip("/")
    if not path.endswith(endpoint_path):
        path = path + endpoint_path
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def retry_after_seconds(value: str) -> Optional[float]:
    """Seconds a ``Retry-After`` value asks for, in its seconds or HTTP-date form; None when unreadable."""
    text = value.strip()
    if text.isdigit():
        return float(int(text))
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if moment is None or moment.tzinfo is None:  # pyright: ignore[reportUnnecessaryComparison]
        return None
    return max(0.0, moment.timestamp() - time.time())


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect would turn the POST into a GET: it is reported as the host's answer instead."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirect())


def _non_negative(name: str, value: Optional[float], fallback: float) -> float:
    if value is None:
        return float(fallback)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0:  # pyright: ignore[reportUnnecessaryIsInstance]
        raise ValueError(f"The option {name} must be a number of seconds, 0 or more; got {value!r}.")
    return float(value)


class Settings:
    """What a client applies, defaults filled in; the key is not among them."""

    def __init__(self, endpoint: str, timeout: float, pace: float, max_attempts: int, max_retry_wait: float, user_agent: str) -> None:
        self.endpoint = endpoint
        self.timeout = timeout
        self.pace = pace
        self.max_attempts = max_attempts
        self.max_retry_wait = max_retry_wait
        self.user_agent = user_agent

    def __repr__(self) -> str:
        return (
            f"Settings(endpoint={self.endpoint!r}, timeout={self.timeout!r}, pace={self.pace!r},"
            f" max_attempts={self.max_attempts!r}, max_retry_wait={self.max_retry_wait!r})"
        )


class _Answer:
    def __init__(self, status: int, headers: Mapping[str, str], text: str) -> None:
        self.status = status
        self.headers = headers
        self.text = text


class ClientCore:
    """Sends actions to one site, with the retry policy, the pace and the timeouts."""

    def __init__(
        self,
        description: Description,
        error_classes: ErrorClasses,
        base_url: str,
        api_key: str,
        *,
        timeout: Optional[float] = None,
        pace: Optional[float] = None,
        max_attempts: Optional[int] = None,
        max_retry_wait: Optional[float] = None,
        user_agent: Optional[str] = None,
        on_attempt: Optional[AttemptHook] = None,
    ) -> None:
        self._description = description
        self._error_classes = error_classes
        if not isinstance(api_key, str) or api_key == "":  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"The API key ({description['credential']}) must be a non-empty string.")
        self._api_key = _Secret(api_key)
        policy: Mapping[str, Any] = description["policy"]
        attempts = policy["maxAttempts"] if max_attempts is None else max_attempts
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
            raise ValueError(f"The option max_attempts must be a whole number, 1 or more; got {attempts!r}.")
        if on_attempt is not None and not callable(on_attempt):
            raise TypeError("The option on_attempt must be a function.")
        endpoint = endpoint_url(base_url, description["endpointPath"], description["restPrefix"])
        self.settings = Settings(
            endpoint=endpoint,
            timeout=_non_negative("timeout", timeout, policy["attemptTimeoutSeconds"]),
            pace=_non_negative("pace", pace, policy["paceSeconds"]),
            max_attempts=attempts,
            max_retry_wait=_non_negative("max_retry_wait", max_retry_wait, policy["retryAfterCapSeconds"]),
            user_agent=user_agent or f"{description['packageName']}/{description['version']} (Python)",
        )
        self._turns = _turns_of(endpoint)
        self._on_attempt = on_attempt

    def __repr__(self) -> str:
        return f"ClientCore(endpoint={self.settings.endpoint!r})"

    def send(self, action: str, fields: Mapping[str, Any], timeout: Optional[float] = None) -> Dict[str, Any]:
        """Checks the fields, then sends the action until it succeeds, fails for good, or the attempts run out."""
        description = self._description
        if not isinstance(action, str) or action == "":  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError("The action must be a non-empty string.")
        if not isinstance(fields, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"{action}: the fields must be a mapping, such as a dict.")
        actions: Mapping[str, Any] = description["actions"]
        rules = actions.get(action)
        if rules is None:
            rules = [rule for rule in description["sharedFields"] if rule["required"]]
        check_fields(action, rules, fields)
        # Python has no undefined: None for a field whose type has no null means "not given", as
        # the check above took it, so it is not sent either.
        not_nullable = {rule["name"] for rule in rules if "null" not in rule["types"]}
        plain = {
            name: value
            for name, value in fields.items()
            if name not in (description["selector"], description["credential"]) and not (value is None and name in not_nullable)
        }
        return self._attempts(action, plain, _non_negative("timeout", timeout, self.settings.timeout))

    def _report(self, action: str, attempt: int, outcome: str, status: Optional[int], started: float, retry_in: Optional[float]) -> None:
        if self._on_attempt is None:
            return
        report = AttemptReport(action=action, attempt=attempt, outcome=outcome, status=status, seconds=time.monotonic() - started, retry_in_seconds=retry_in)
        try:
            self._on_attempt(report)
        except Exception:  # noqa: BLE001 - a hook is the caller's logging: its failure must not change what the call returns.
            pass

    def _backoff(self, attempt: int) -> float:
        policy: Mapping[str, Any] = self._description["policy"]
        nominal = min(policy["backoffMaxSeconds"], policy["backoffBaseSeconds"] * 2 ** (attempt - 1))
        fixed = nominal * policy["backoffFixedShare"]
        return fixed + (nominal - fixed) * random.random()

    def _post(self, fields: Mapping[str, Any], action: str, timeout: float) -> Tuple[Optional[_Answer], str, str]:
        """One request: the answer, or None with ``timeout`` or ``connection`` and a reason."""
        description = self._description
        request = urllib.request.Request(
            self.settings.endpoint,
            method=description["method"],
            headers={"Content-Type": "application/json", "Accept": "application/json", "User-Agent": self.settings.user_agent},
        )
        deadline = time.monotonic() + timeout if timeout > 0 else None
        try:
            # The key joins the body here only, so that no frame of a traceback holds it in a local.
            response = _opener.open(
                request,
                data=json.dumps({**fields, description["selector"]: action, description["credential"]: self._api_key.reveal()}).encode("utf-8"),
                timeout=timeout if timeout > 0 else None,
            )
        except urllib.error.HTTPError as answered:
            response = answered
        except urllib.error.URLError as failed:
            reason = failed.reason
            if isinstance(reason, socket.timeout):
                return None, "timeout", "no answer"
            return None, "connection", str(reason)
        except socket.timeout:
            return None, "timeout", "no answer"
        except (OSError, http.client.HTTPException) as failed:
            return None, "connection", type(failed).__name__
        try:
            chunks: List[bytes] = []
            while True:
                if deadline is not None and time.monotonic() > deadline:
                    return None, "timeout", "no whole answer"
                chunk = response.read(65536)
                if not chunk:
                    break
                chunks.append(chunk)
            status = int(response.status or 0)
            headers = {name.lower(): value for name, value in response.headers.items()}
        except socket.timeout:
            return None, "timeout", "no whole answer"
        except (OSError, http.client.HTTPException) as failed:
            return None, "connection", type(failed).__name__
        finally:
            response.close()
        return _Answer(status, headers, b"".join(chunks).decode("utf-8", errors="replace")), "answered", ""

    def _attempts(self, action: str, fields: Mapping[str, Any], timeout: float) -> Dict[str, Any]:
        description = self._description
        settings = self.settings
        attempt = 0
        while True:
            attempt += 1
            self._turns.take(settings.pace)
            started = time.monotonic()
            answer, outcome, reason = self._post(fields, action, timeout)
            if answer is None:
                # No answer: the action may have gone through, and a repeat is safe (it answers that nothing changed).
                if attempt >= settings.max_attempts:
                    self._report(action, attempt, outcome, None, started, None)
                    if outcome == "timeout":
                        raise TimeoutError(timeout, attempt)
                    raise ConnectionError(reason, attempt)
                wait = self._backoff(attempt)
                self._report(action, attempt, outcome, None, started, wait)
                self._turns.hold_back(wait)
                continue

            parsed: Any = None
            content_type = answer.headers.get("content-type", "")
            if content_type.split(";")[0].strip().lower().endswith("json"):
                try:
                    parsed = json.loads(answer.text)
                except ValueError:
                    parsed = None
            if answer.status == description["successStatus"] and isinstance(parsed, dict):
                self._report(action, attempt, "answered", answer.status, started, None)
                return parsed  # type: ignore[reportUnknownVariableType]

            if answer.status == description["throttledStatus"]:
                header = answer.headers.get(str(description["retryAfterHeader"]).lower())
                asked = None if header is None else retry_after_seconds(header)
                if asked is not None and asked > settings.max_retry_wait:
                    self._report(action, attempt, "answered", answer.status, started, None)
                    raise ThrottledError(
                        answer.status, asked, attempt,
                        f"the site asks to wait {asked:.0f} s ({description['retryAfterHeader']}: {header}), longer than this client's bound of {settings.max_retry_wait:.0f} s: try again later",
                    )
                if attempt >= settings.max_attempts:
                    self._report(action, attempt, "answered", answer.status, started, None)
                    raise ThrottledError(answer.status, asked, attempt, f"still throttled after {attempt} attempt{'' if attempt == 1 else 's'}: try again later")
                # An unreadable Retry-After falls back to the client's own backoff, as the errors guide says.
                wait = asked if asked is not None else self._backoff(attempt)
                self._report(action, attempt, "answered", answer.status, started, wait)
                self._turns.hold_back(wait)
                continue

            members: Mapping[str, str] = description["errorBody"]
            from_service = isinstance(parsed, dict) and isinstance(parsed.get(members["code"]), str)  # type: ignore[reportUnknownMemberType]
            retried = answer.status == description["serviceFailureStatus"] if from_service else answer.status in description["transientHostStatuses"]
            if retried and attempt < settings.max_attempts:
                wait = self._backoff(attempt)
                self._report(action, attempt, "answered", answer.status, started, wait)
                self._turns.hold_back(wait)
                continue
            self._report(action, attempt, "answered", answer.status, started, None)
            if from_service:
                error_class = self._error_classes.get(answer.status, ServiceError)
                raise error_class(answer.status, parsed, members)  # type: ignore[reportUnknownArgumentType]
            raise HostError(answer.status, answer.headers.get("content-type", ""), answer.headers.get("location"), answer.text)
