"""The Python library, installed from its wheel, against a real site over HTTP.

Run by tests/integration/python-client.test.ts against the sandbox, and by
tests/integration/wordpress-plugin-zip.test.ts against the reference plugin in the real WordPress.
Each seeds its site and hands this module a plan (``PYTHON_CLIENT_PLAN``, a JSON file, written by
tests/support/python-client-plan.ts from the contract's model): the site's address and key, the
actions, their fields and outcomes, the documented errors with their classes and codes. Nothing
here names an action, a field, a status or a code, or a site, of its own.
"""

import email.utils
import http.server
import io
import json
import logging
import os
import socket
import sys
import threading
import time
import traceback
import unittest
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, List, Optional, Tuple

import subscription_lifecycle_client as library

with open(os.environ["PYTHON_CLIENT_PLAN"], encoding="utf-8") as plan_file:
    PLAN: Dict[str, Any] = json.load(plan_file)

API_KEY: str = PLAN["api_key"]
RESULT: Dict[str, str] = PLAN["result"]
SUBJECT: str = PLAN["subject"]


def quick(base_url: Optional[str] = None, **options: Any) -> library.SubscriptionLifecycleClient:
    """A client with the courtesy pace off, so that the tests that do not measure it run quickly."""
    return library.SubscriptionLifecycleClient(base_url or PLAN["base_url"], API_KEY, pace=0, **options)


def call(client: library.SubscriptionLifecycleClient, case: Dict[str, Any], fields: Dict[str, Any]) -> Dict[str, Any]:
    method: Callable[..., Dict[str, Any]] = getattr(client, case["method"])
    return method(fields)


def spare() -> int:
    return PLAN["spare"].pop()


class Host:
    """A host of the test's own in front of the sandbox: ``answer`` says, per request, what to send instead, or None to pass it on."""

    def __init__(self, answer: Callable[[int], Optional[Tuple[int, Dict[str, str], bytes]]]) -> None:
        self.arrivals: List[float] = []
        self.bodies: List[bytes] = []
        host = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the name http.server calls.
                host.arrivals.append(time.monotonic())
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                host.bodies.append(body)
                scripted = answer(len(host.arrivals))
                if scripted is None:
                    request = urllib.request.Request(PLAN["endpoint_url"], data=body, method="POST", headers={"Content-Type": "application/json"})
                    try:
                        with urllib.request.urlopen(request) as response:
                            status, content_type, payload = response.status, response.headers.get("Content-Type", ""), response.read()
                    except urllib.error.HTTPError as error:
                        status, content_type, payload = error.code, error.headers.get("Content-Type", ""), error.read()
                    scripted = (status, {"Content-Type": content_type}, payload)
                status, headers, payload = scripted
                if status == 0:
                    # Silence: keep the connection open and never answer.
                    time.sleep(3)
                    return
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's own parameter name.
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class EveryAction(unittest.TestCase):
    def test_each_action_changes_its_subscription_and_its_repeat_changes_nothing(self) -> None:
        client = quick()
        for case in PLAN["cases"]:
            with self.subTest(action=case["action"]):
                answer = call(client, case, case["fields"])
                self.assertEqual(answer[RESULT["action"]], case["action"])
                self.assertEqual(answer[RESULT["previousStatus"]], case["from"])
                self.assertEqual(answer[RESULT["status"]], case["to"])
                self.assertIs(answer[RESULT["changed"]], True)
                repeated = client.send(case["action"], case["fields"])
                self.assertIs(repeated[RESULT["changed"]], False)

    def test_an_optional_field_given_as_none_is_not_sent(self) -> None:
        case = PLAN["optional_none"]
        host = Host(lambda _: None)
        try:
            answer = call(quick(host.url), case, {**case["fields"], case["field"]: None, SUBJECT: spare()})
        finally:
            host.close()
        self.assertIs(answer[RESULT["changed"]], True)
        self.assertEqual(len(host.bodies), 1)
        self.assertNotIn(case["field"], json.loads(host.bodies[0]))


class DocumentedErrors(unittest.TestCase):
    def test_a_refused_status_raises_the_conflict_class_with_the_actions_it_allows(self) -> None:
        conflict = PLAN["conflict"]
        with self.assertRaises(getattr(library, conflict["class"])) as caught:
            call(quick(), conflict, conflict["fields"])
        error = caught.exception
        self.assertIsInstance(error, library.ServiceError)
        self.assertEqual(error.status, conflict["status"])
        self.assertEqual(error.code, conflict["code"])
        self.assertEqual(getattr(error, conflict["current_status_property"]), conflict["current_status"])
        self.assertEqual(getattr(error, conflict["allowed_actions_property"]), conflict["allowed_actions"])
        # A caller falls back to an action the answer names through send().
        fallback = quick().send(conflict["fallback"]["action"], conflict["fallback"]["fields"])
        self.assertIn(RESULT["changed"], fallback)

    def test_a_field_the_action_does_not_take_is_the_services_400(self) -> None:
        case = PLAN["bad_request"]
        with self.assertRaises(getattr(library, case["class"])) as caught:
            quick().send(case["action"], {**case["fields"], SUBJECT: spare()})
        self.assertEqual(caught.exception.code, case["code"])

    def test_a_wrong_key_is_the_401_class_and_the_key_is_in_no_message(self) -> None:
        case = PLAN["unauthorized"]
        wrong = API_KEY + "-wrong"
        client = library.SubscriptionLifecycleClient(PLAN["base_url"], wrong, pace=0)
        with self.assertRaises(getattr(library, case["class"])) as caught:
            call(client, case, {**case["fields"], SUBJECT: spare()})
        self.assertEqual(caught.exception.code, case["code"])
        self.assertNotIn(wrong, str(caught.exception) + repr(caught.exception) + repr(caught.exception.args))

    def test_an_unknown_subscription_is_the_404_class(self) -> None:
        case = PLAN["not_found"]
        with self.assertRaises(getattr(library, case["class"])) as caught:
            call(quick(), case, case["fields"])
        self.assertEqual(caught.exception.code, case["code"])

    def test_a_field_out_of_its_bound_is_refused_before_anything_is_sent(self) -> None:
        case = PLAN["out_of_bound"]
        host = Host(lambda _: None)
        try:
            with self.assertRaises(library.InvalidFieldError) as caught:
                call(quick(host.url), case, case["fields"])
            self.assertIn(case["field"], str(caught.exception))
            self.assertIn(case["label"], str(caught.exception))
            with self.assertRaises(library.InvalidFieldError):
                quick(host.url).send(case["action"], {})
            self.assertEqual(host.arrivals, [], "nothing was sent")
        finally:
            host.close()


class TheHostInFrontOfTheSite(unittest.TestCase):
    def throttled_once(self, retry_after: Callable[[], str]) -> None:
        throttled = PLAN["throttled"]
        host = Host(lambda count: (throttled["status"], {throttled["header"]: retry_after(), "Content-Type": "text/html"}, b"<p>slow down</p>") if count == 1 else None)
        reports: List[library.AttemptReport] = []
        try:
            case = PLAN["cases"][0]
            started = time.monotonic()
            answer = call(quick(host.url, on_attempt=reports.append), case, {**case["fields"], SUBJECT: spare()})
            self.assertIs(answer[RESULT["changed"]], True)
            self.assertEqual(len(host.arrivals), 2)
            waited = host.arrivals[1] - host.arrivals[0]
            self.assertGreaterEqual(waited, 1.0, "the wait asked for was kept")
            self.assertLess(time.monotonic() - started, 30)
            self.assertEqual([report["outcome"] for report in reports], ["answered", "answered"])
            self.assertEqual(reports[0]["status"], throttled["status"])
            self.assertIsNotNone(reports[0]["retry_in_seconds"])
            self.assertIsNone(reports[1]["retry_in_seconds"])
            for report in reports:
                self.assertEqual(sorted(report.keys()), sorted(PLAN["attempt_report_members"]))
        finally:
            host.close()

    def test_a_429_with_retry_after_in_seconds_is_waited_out_then_the_action_succeeds(self) -> None:
        self.throttled_once(lambda: "2")

    def test_a_429_with_retry_after_as_an_http_date_is_waited_out_then_the_action_succeeds(self) -> None:
        self.throttled_once(lambda: email.utils.formatdate(time.time() + 3, usegmt=True))

    def test_a_wait_longer_than_the_bound_is_not_waited(self) -> None:
        throttled = PLAN["throttled"]
        host = Host(lambda _: (throttled["status"], {throttled["header"]: "120"}, b""))
        try:
            case = PLAN["cases"][0]
            with self.assertRaises(library.ThrottledError) as caught:
                call(quick(host.url, max_retry_wait=60), case, case["fields"])
            self.assertEqual(caught.exception.retry_after_seconds, 120)
            self.assertEqual(len(host.arrivals), 1)
        finally:
            host.close()

    def test_a_hosts_html_page_is_a_host_error(self) -> None:
        host = Host(lambda _: (200, {"Content-Type": "text/html; charset=utf-8"}, ("<html><body>" + "é" * 300 + "</body></html>").encode("utf-8")))
        try:
            case = PLAN["cases"][0]
            with self.assertRaises(library.HostError) as caught:
                call(quick(host.url, max_attempts=1), case, case["fields"])
            self.assertIn("html", caught.exception.content_type)
            json.dumps(str(caught.exception) + caught.exception.page_excerpt)
        finally:
            host.close()

    def test_no_answer_within_the_timeout_is_a_timeout_error(self) -> None:
        host = Host(lambda _: (0, {}, b""))
        reports: List[library.AttemptReport] = []
        try:
            case = PLAN["cases"][0]
            with self.assertRaises(library.TimeoutError) as caught:
                call(quick(host.url, timeout=0.3, max_attempts=1, on_attempt=reports.append), case, case["fields"])
            self.assertIsInstance(caught.exception, library.NoAnswerError)
            self.assertEqual([report["outcome"] for report in reports], ["timeout"])
        finally:
            host.close()

    def test_a_refused_connection_is_retried_then_a_connection_error(self) -> None:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        listener.close()
        reports: List[library.AttemptReport] = []
        case = PLAN["cases"][0]
        with self.assertRaises(library.ConnectionError):
            call(quick(f"http://127.0.0.1:{port}", max_attempts=2, on_attempt=reports.append), case, case["fields"])
        self.assertEqual([report["outcome"] for report in reports], ["connection", "connection"])
        self.assertIsNotNone(reports[0]["retry_in_seconds"])


class TheKeyNeverShows(unittest.TestCase):
    def test_the_key_is_in_no_repr_message_log_record_or_traceback(self) -> None:
        stream = io.StringIO()
        handler = logging.StreamHandler(stream)
        logger = logging.getLogger("test-key")
        logger.addHandler(handler)
        host = Host(lambda _: (0, {}, b""))
        try:
            client = quick(host.url, timeout=0.2, max_attempts=1)
            seen = [repr(client), str(client), repr(client.settings), repr(vars(client))]
            case = PLAN["cases"][0]
            try:
                call(client, case, case["fields"])
            except library.ClientError as error:
                seen += [str(error), repr(error), repr(error.args), repr(vars(error))]
                seen += traceback.format_exception(type(error), error, error.__traceback__)
                seen += list(traceback.TracebackException.from_exception(error, capture_locals=True).format())
                logger.exception("the call failed: %r", client)
            for conflict in (PLAN["conflict"],):
                try:
                    call(quick(), conflict, conflict["fields"])
                except library.ClientError as error:
                    seen += list(traceback.TracebackException.from_exception(error, capture_locals=True).format())
                    logger.exception("refused")
        finally:
            host.close()
            logger.removeHandler(handler)
        seen.append(stream.getvalue())
        for text in seen:
            self.assertNotIn(API_KEY, text)


class SyntaxFloor(unittest.TestCase):
    def test_every_file_parses_as_the_oldest_python_the_package_claims(self) -> None:
        import ast
        import pathlib

        folder = pathlib.Path(library.__file__).parent
        files = sorted(folder.glob("*.py"))
        self.assertGreater(len(files), 0)
        for file in files:
            with self.subTest(file=file.name):
                ast.parse(file.read_text(encoding="utf-8"), filename=str(file), feature_version=tuple(PLAN["python_floor"]))
        self.assertTrue((folder / "py.typed").exists())


class TheSharedNames(unittest.TestCase):
    def test_every_kind_and_documented_status_has_its_class(self) -> None:
        for name in PLAN["error_classes"]:
            with self.subTest(name=name):
                self.assertTrue(issubclass(getattr(library, name), library.ClientError))


if __name__ == "__main__":
    sys.exit(unittest.main())
