import { wordpressRouteParameter } from '../../contract/endpoint.ts';
import { pythonLiteral } from '../literals.ts';
import { baseUrlParts, fillIn, type ClientParts } from './client-parts.ts';

/** The retrying client in Python, with the `requests` library: the JavaScript client's policy, step for step. */
export function retryingPythonClient(parts: ClientParts): string {
  const { endpoint, statuses, policy, example } = parts;
  const base = baseUrlParts(endpoint);
  const code = statuses.codeField;

  return `"""A client for one site that follows the retry policy of the errors guide."""
import email.utils
import random
import re
import time

import requests  # pip install requests

CONNECT_TIMEOUT = ${policy.connectTimeoutSeconds}  # seconds to connect
READ_TIMEOUT = ${policy.attemptTimeoutSeconds}  # seconds to wait for each part of the answer
MAX_ATTEMPTS = ${policy.maxAttempts}  # attempts in all, the first one included
BACKOFF_BASE = ${policy.backoffBaseSeconds}  # nominal seconds before the second attempt; doubles each time
BACKOFF_MAX = ${policy.backoffMaxSeconds}  # no nominal wait grows beyond this
BACKOFF_FIXED_SHARE = ${policy.backoffFixedShare}  # the part of each wait that is not random
RETRY_AFTER_CAP = ${policy.retryAfterCapSeconds}  # asked to wait longer, the client stops and reports
INTERVAL = ${policy.courtesyIntervalSeconds}  # about one request per second to a site: a courtesy
RETRIED = {${statuses.retried.join(', ')}}  # ${statuses.throttled} after ${statuses.retryAfter}, the others after a backoff


def retry_after(value, now=None):
    """Seconds to wait, from a ${statuses.retryAfter} header: whole seconds, or an HTTP
    date in its one current form, "Fri, 20 Nov 2026 14:05:00 GMT" (RFC 9110, section
    10.2.3), none once it has passed. None when missing or anything else (-1, 1.5,
    now, an older date form): then the backoff applies."""
    if value is None:
        return None
    text = value.strip()
    # Not str.isdigit(), which takes other scripts' digits and superscripts.
    if re.fullmatch(r"[0-9]+", text):
        return float(text)
    # The parser reads looser dates too; only one it writes back unchanged is an HTTP date.
    try:
        moment = email.utils.parsedate_to_datetime(text)
        if email.utils.format_datetime(moment, usegmt=True) != text:
            return None
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - (time.time() if now is None else now))


def backoff(attempt):
    """The wait after failed attempt number \`attempt\`: exponential, with jitter."""
    nominal = min(BACKOFF_MAX, BACKOFF_BASE * 2 ** (attempt - 1))
    fixed = nominal * BACKOFF_FIXED_SHARE
    return fixed + (nominal - fixed) * random.random()


class ServiceError(Exception):
    """The service refused the request; branch on \`${code}\`. Sending it again unchanged would fail again."""

    def __init__(self, status, answer):
        super().__init__(f"HTTP {status} {answer['${code}']}: {answer.get('${statuses.messageField}')}")
        self.status = status
        self.${code} = answer["${code}"]
        self.data = answer.get("data")


class HostError(Exception):
    """The host, a firewall or a CDN answered, not the service: a block, a redirect, a wrong address."""

    def __init__(self, response):
        kind = response.headers.get("Content-Type") or "no body type"
        location = response.headers.get("Location")
        pointer = f"; it points to {location}" if location else ""
        super().__init__(f"HTTP {response.status_code} from the host, not the service ({kind}){pointer}")
        self.status = response.status_code


class GaveUp(Exception):
    """The attempts ended without a success; the message says what the last one got."""


class Client:
    """A client for one site: \`send(body)\` returns the success body or raises one of the errors above."""

    def __init__(self, base_url):
        # base_url: the site's whole base URL, scheme included: ${base.example},
        # or the http:// address a local sandbox prints; for a site without pretty
        # permalinks, the same ending in "?${wordpressRouteParameter}=": ${base.plain.example}
        if re.search(r"${base.plain.ending.source}", base_url):
            self.url = base_url + ${JSON.stringify(base.plain.route)}
        else:
            self.url = base_url.rstrip("/") + ${JSON.stringify(base.path)}
        self.session = requests.Session()
        # No request goes to this site before this moment.
        self.not_before = 0.0

    def _wait_for_turn(self):
        time.sleep(max(0.0, self.not_before - time.monotonic()))
        self.not_before = time.monotonic() + INTERVAL

    def _hold_back(self, seconds):
        # A wait holds back every later request to this site, not only this one.
        self.not_before = max(self.not_before, time.monotonic() + seconds)

    def send(self, body):
        last = ""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            self._wait_for_turn()
            try:
                response = self.session.request(
                    ${JSON.stringify(endpoint.method)},
                    self.url,
                    json=body,
                    timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
                    # A redirect would turn the POST into a GET: report it instead.
                    allow_redirects=False,
                )
            except (requests.ConnectionError, requests.Timeout) as error:
                # No answer: the connection dropped or the attempt timed out. The action may
                # have gone through; a repeat is safe, it answers "changed": false.
                last = f"no answer ({type(error).__name__})"
                self._hold_back(backoff(attempt))
                continue
            if response.status_code == ${statuses.success}:
                return response.json()
            # Only a JSON body with a "${code}" comes from the service.
            answer = None
            if response.headers.get("Content-Type", "").lower().startswith("application/json"):
                try:
                    answer = response.json()
                except ValueError:
                    answer = None
            from_service = isinstance(answer, dict) and isinstance(answer.get("${code}"), str)
            if response.status_code not in RETRIED:
                raise ServiceError(response.status_code, answer) if from_service else HostError(response)
            last = f"HTTP {response.status_code}" + (f" {answer['${code}']}" if from_service else "")
            asked = retry_after(response.headers.get("${statuses.retryAfter}"))
            if asked is not None and asked > RETRY_AFTER_CAP:
                raise GaveUp(f"{last} asks to wait {asked:.0f} s, longer than {RETRY_AFTER_CAP} s: try again later")
            self._hold_back(backoff(attempt) if asked is None else asked)
        raise GaveUp(f"No success after {MAX_ATTEMPTS} attempts; the last got {last}")


if __name__ == "__main__":
    ${fillIn('#', parts)}
    client = Client(${JSON.stringify(base.example)})
    try:
        print(client.send(${pythonLiteral(example, '        ')}))
    except (ServiceError, HostError, GaveUp) as error:
        raise SystemExit(str(error))
`;
}
