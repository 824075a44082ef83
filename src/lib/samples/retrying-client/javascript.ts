import { wordpressRouteParameter } from '../../contract/endpoint.ts';
import { javascriptLiteral } from '../literals.ts';
import { baseUrlParts, fillIn, type ClientParts } from './client-parts.ts';

/**
 * A JavaScript client for one site that follows the retry policy exactly: a timeout on every
 * attempt; the throttled status waited out as its `Retry-After` header says (seconds or an HTTP
 * date, RFC 9110 section 10.2.3) up to the cap; the service's failure, the host's transient
 * answers, dropped connections and timeouts sent again after an exponential backoff with jitter;
 * at most `maxAttempts` attempts; every other answer reported at once, the service's own errors
 * (JSON with a code) told apart from the host's; and about a second between requests to the site.
 */
export function retryingJavascriptClient(parts: ClientParts): string {
  const { endpoint, statuses, policy, example } = parts;
  const base = baseUrlParts(endpoint);
  const [throttled, ...others] = [Number(statuses.throttled), ...statuses.retried.filter((status) => status !== Number(statuses.throttled))];
  const code = statuses.codeField;

  return `/** The retry policy of the errors guide, in milliseconds. */
export const policy = {
  // One attempt may take this long in all, connecting included.
  attemptTimeout: ${policy.attemptTimeoutSeconds * 1000},
  // Attempts in all, the first one included.
  maxAttempts: ${policy.maxAttempts},
  // The nominal wait before the second attempt; it doubles before each further one.
  backoffBase: ${policy.backoffBaseSeconds * 1000},
  backoffMax: ${policy.backoffMaxSeconds * 1000},
  // The part of each nominal wait that is always waited; the rest is random.
  backoffFixedShare: ${policy.backoffFixedShare},
  // Asked to wait longer than this, the client stops and reports.
  retryAfterCap: ${policy.retryAfterCapSeconds * 1000},
  // About one request per second to a site: a courtesy, not enforced.
  interval: ${policy.courtesyIntervalSeconds * 1000},
};

/** ${throttled} is waited out as ${statuses.retryAfter} says; ${others.join(', ')} are sent again after a backoff. */
const retried = new Set([${statuses.retried.join(', ')}]);

/**
 * Milliseconds to wait, from a ${statuses.retryAfter} header: whole seconds, or an
 * HTTP date in its one current form, "Fri, 20 Nov 2026 14:05:00 GMT" (RFC 9110,
 * section 10.2.3), none once it has passed. Null when the header is missing or
 * anything else (-1, 1.5, now, an older date form): then the backoff applies.
 */
export function retryAfter(value, now = Date.now()) {
  if (value === null) return null;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  // Date.parse reads far more than HTTP dates; only one it writes back unchanged is one.
  const date = Date.parse(text);
  if (Number.isNaN(date) || new Date(date).toUTCString() !== text) return null;
  return Math.max(0, date - now);
}

/** The wait after failed attempt number \`attempt\`: exponential, with jitter. */
export function backoff(attempt, settings = policy) {
  const nominal = Math.min(settings.backoffMax, settings.backoffBase * 2 ** (attempt - 1));
  const fixed = nominal * settings.backoffFixedShare;
  return fixed + (nominal - fixed) * Math.random();
}

/** The service refused the request; branch on \`${code}\`. Sending it again unchanged would fail again. */
export class ServiceError extends Error {
  constructor(status, answer) {
    super(\`HTTP \${status} \${answer.${code}}: \${answer.${statuses.messageField}}\`);
    this.status = status;
    this.${code} = answer.${code};
    this.data = answer.data;
  }
}

/** The host, a firewall or a CDN answered, not the service: a block, a redirect, a wrong address. */
export class HostError extends Error {
  constructor(response) {
    const type = response.headers.get("Content-Type") || "no body type";
    const location = response.headers.get("Location");
    super(\`HTTP \${response.status} from the host, not the service (\${type})\${location ? \`; it points to \${location}\` : ""}\`);
    this.status = response.status;
  }
}

/** The attempts ended without a success; the message says what the last one got. */
export class GaveUp extends Error {}

const sleep = (milliseconds) =>
  new Promise((resolve) => setTimeout(resolve, milliseconds));

const isJson = (response) =>
  (response.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json");

/**
 * A client for one site: \`send(body)\` resolves to the success body, or rejects with one of the
 * errors above. \`baseUrl\` is the site's whole base URL, scheme included: ${JSON.stringify(base.example)},
 * or the http:// address a local sandbox prints; for a site without pretty permalinks, the
 * same ending in "?${wordpressRouteParameter}=": ${JSON.stringify(base.plain.example)}.
 */
export function createClient(baseUrl, options = {}) {
  const settings = { ...policy, ...options };
  const url = /${base.plain.ending.source}/.test(baseUrl)
    ? \`\${baseUrl}${base.plain.route}\`
    : \`\${baseUrl.replace(/\\/+$/, "")}${base.path}\`;
  // No request goes to this site before this moment, on the monotonic clock: a wall clock that
  // is set back or slewed would shorten the spacing.
  let notBefore = 0;
  // Calls made at the same time take their turns one after the other.
  let queue = Promise.resolve();

  function waitForTurn() {
    const turn = queue.then(async () => {
      await sleep(Math.max(0, notBefore - performance.now()));
      notBefore = performance.now() + settings.interval;
    });
    queue = turn;
    return turn;
  }

  // A wait holds back every later request to this site, not only this one.
  function holdBack(milliseconds) {
    notBefore = Math.max(notBefore, performance.now() + milliseconds);
  }

  return async function send(body) {
    let last = "";
    for (let attempt = 1; attempt <= settings.maxAttempts; attempt += 1) {
      await waitForTurn();
      let response;
      try {
        response = await fetch(url, {
          method: ${JSON.stringify(endpoint.method)},
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(settings.attemptTimeout),
          // A redirect would turn the POST into a GET: report it instead.
          redirect: "manual",
        });
      } catch (error) {
        // No answer: the connection dropped or the attempt timed out. The action may
        // have gone through; a repeat is safe, it answers "changed": false.
        last = \`no answer (\${error.cause?.code ?? error.name})\`;
        holdBack(backoff(attempt, settings));
        continue;
      }
      if (response.status === ${statuses.success}) return response.json();
      // Only a JSON body with a "${code}" comes from the service.
      const answer = isJson(response)
        ? await response.json().catch(() => undefined)
        : await response.body?.cancel();
      const fromService = typeof answer?.${code} === "string";
      if (!retried.has(response.status)) {
        throw fromService ? new ServiceError(response.status, answer) : new HostError(response);
      }
      last = \`HTTP \${response.status}\${fromService ? \` \${answer.${code}}\` : ""}\`;
      const asked = retryAfter(response.headers.get(${JSON.stringify(statuses.retryAfter)}));
      if (asked !== null && asked > settings.retryAfterCap) {
        throw new GaveUp(\`\${last} asks to wait \${Math.ceil(asked / 1000)} s, longer than \${settings.retryAfterCap / 1000} s: try again later\`);
      }
      holdBack(asked ?? backoff(attempt, settings));
    }
    throw new GaveUp(\`No success after \${settings.maxAttempts} attempts; the last got \${last}\`);
  };
}

${fillIn('//', parts)}
const send = createClient(${JSON.stringify(base.example)});
try {
  console.log(await send(${javascriptLiteral(example, '  ')}));
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
}
`;
}
