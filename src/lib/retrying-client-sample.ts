import type { Endpoint } from './endpoint.ts';
import type { SampleStatuses } from './code-samples.ts';
import { fillInComment, interpolatedUrl, javascriptLiteral, placeholdersIn, variableName } from './code-samples.ts';

/** Milliseconds between two requests to the same site: about one a second, the courtesy default. */
export const courtesyInterval = 1000;

/**
 * A JavaScript client that sends actions to one site the way the contract asks: it treats the
 * throttled status as final for that attempt, waits as its `Retry-After` header says (seconds or
 * an HTTP date, RFC 9110 section 10.2.3), and spaces its own requests about a second apart.
 * The usage at the end sends `example`, the request example of one action.
 */
export function retryingClientSample(
  endpoint: Endpoint,
  statuses: Pick<SampleStatuses, 'throttled' | 'retryAfter'>,
  example: Record<string, unknown>,
): string {
  const parameters = endpoint.variables.map((variable) => variableName(variable.name));
  const url = interpolatedUrl(endpoint, (name) => `\${${name}}`);
  const defaults = endpoint.variables.map((variable) => JSON.stringify(variable.defaultValue)).join(', ');
  const fillIn = fillInComment('//', [
    ...endpoint.variables.map((variable) => variable.defaultValue),
    ...placeholdersIn(example).map((placeholder) => `${placeholder} in the body`),
  ]);

  return `/**
 * Milliseconds to wait, from a ${statuses.retryAfter} header: a number of
 * seconds or an HTTP date (RFC 9110, section 10.2.3). Null when the
 * header is missing or unreadable.
 */
export function retryAfter(value, now = Date.now()) {
  if (value === null) return null;
  const text = value.trim();
  if (/^\\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const sleep = (milliseconds) =>
  new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * A client for one site. It sends about one request per second at most
 * (a courtesy: the service itself does not throttle). When the hosting
 * environment answers ${statuses.throttled}, it waits as long as ${statuses.retryAfter}
 * says, then sends the same request again.
 */
export function createClient(
  ${parameters.join(', ')},
  { interval = ${courtesyInterval}, attempts = 5 } = {},
) {
  const url = \`${url}\`;
  // No request goes to this site before this moment.
  let notBefore = 0;
  // Calls made at the same time take their turns one after the other.
  let queue = Promise.resolve();

  function waitForTurn() {
    const turn = queue.then(async () => {
      await sleep(Math.max(0, notBefore - Date.now()));
      notBefore = Date.now() + interval;
    });
    queue = turn;
    return turn;
  }

  return async function send(body) {
    for (let attempt = 1; ; attempt += 1) {
      await waitForTurn();
      const response = await fetch(url, {
        method: ${JSON.stringify(endpoint.method)},
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (response.status !== ${statuses.throttled}) {
        const text = await response.text();
        if (!response.ok) {
          throw new Error(\`HTTP \${response.status}: \${text}\`);
        }
        return JSON.parse(text);
      }
      // ${statuses.throttled} is authoritative: the request was not processed.
      // The body has no contract (it may be an HTML page), so only the
      // status and the header count.
      await response.body?.cancel();
      if (attempt === attempts) {
        throw new Error(\`Still throttled after \${attempts} attempts\`);
      }
      // Without a usable header, back off on our own: 2, 4, 8 seconds...
      const header = response.headers.get(${JSON.stringify(statuses.retryAfter)});
      const wait = retryAfter(header) ?? 2 ** attempt * 1000;
      // Hold back every later request to this site as well, not only this one.
      notBefore = Math.max(notBefore, Date.now() + wait);
    }
  };
}

${fillIn}
const send = createClient(${defaults});
console.log(await send(${javascriptLiteral(example)}));
`;
}
