import { isRecord } from '../contract/document.ts';
import type { Endpoint } from '../contract/endpoint.ts';
import { fillUrl } from '../contract/endpoint.ts';
import { listInWords } from '../prose.ts';
import type { ResponseRow } from '../contract/responses.ts';
import {
  errorCodeField,
  errorEnvelope,
  errorMessageField,
  retryAfterHeader,
  serviceFailureResponse,
  successResponse,
  throttledResponse,
} from '../contract/responses.ts';
import { retryPolicy } from './retry-policy.ts';
import { shellQuote } from './shell-quote.ts';
import { contractError } from '../contract/schemas.ts';

/**
 * The languages the action pages show a sample in, in the order of their tabs. Pages, the
 * sample tests and the browser tests all read this list. Plain PHP uses the curl extension
 * rather than Guzzle: it needs no Composer package, and Guzzle itself sends through it wherever
 * the extension is installed, so a shop that can run Guzzle can run this.
 */
export const sampleLanguages = [
  { language: 'curl', label: 'curl', highlight: 'sh', extension: 'sh', wordSeparator: '-' },
  // An ES module with top-level await, whatever the reader's package.json says.
  { language: 'javascript', label: 'JavaScript', highlight: 'js', extension: 'mjs', wordSeparator: '-' },
  { language: 'php', label: 'PHP', highlight: 'php', extension: 'php', wordSeparator: '-' },
  { language: 'wordpress', label: 'WordPress', highlight: 'php', extension: 'php', wordSeparator: '-' },
  // A Python module name takes no hyphen.
  { language: 'python', label: 'Python', highlight: 'python', extension: 'py', wordSeparator: '_' },
] as const;

export type SampleLanguage = (typeof sampleLanguages)[number]['language'];

/** The languages' names alone, in the order of the tabs: what a tool or a test takes as input. */
export const sampleLanguageNames = sampleLanguages.map((entry) => entry.language) as [SampleLanguage, ...SampleLanguage[]];

/** The tab label and highlighting of a language. */
export function sampleLanguage(language: SampleLanguage): (typeof sampleLanguages)[number] {
  const found = sampleLanguages.find((candidate) => candidate.language === language);
  if (found === undefined) throw new Error(`No sample language ${language}`);
  return found;
}

/** The file a sample of the language is saved as: `sampleFileName('python', 'retrying-client')` is `retrying_client.py`. */
export function sampleFileName(language: SampleLanguage, stem: string): string {
  const { extension, wordSeparator } = sampleLanguage(language);
  return `${stem.replaceAll('-', wordSeparator)}.${extension}`;
}

export interface CodeSample {
  language: SampleLanguage;
  /** The tab label. */
  label: string;
  /** The Expressive Code language used to highlight it. */
  highlight: string;
  code: string;
}

/** What a sample needs to know beyond the endpoint: how the service answers. */
export interface SampleStatuses {
  /** The status of a successful action (`"200"`). */
  success: string;
  /** The status a throttled request gets (`"429"`). */
  throttled: string;
  /** The header that says how long to wait after a throttled request. */
  retryAfter: string;
  /**
   * The statuses the retry policy sends again, in ascending order: the throttled one, the
   * service's own failure and the host's transient answers.
   */
  retried: number[];
  /** The members of the service's error body the samples read: the code, and the message for people. */
  codeField: string;
  messageField: string;
}

/** Reads the statuses the samples branch on from the documented responses, and the policy's retries. */
export function sampleStatuses(responses: ResponseRow[]): SampleStatuses {
  const throttled = throttledResponse(responses);
  const failure = serviceFailureResponse(responses);
  const envelope = errorEnvelope(responses);
  for (const member of [errorCodeField, errorMessageField]) {
    if (envelope.includes(member)) continue;
    // Named at the first error body that leaves it out, where the fix goes.
    const lacking = responses.find((response) => response.isError && response.body !== undefined && !(response.body.schema.required ?? []).includes(member));
    throw contractError(lacking?.body?.pointer ?? '#/paths', `the error bodies do not all require \`${member}\`, which the samples read`);
  }
  const retried = [...new Set([Number(throttled.status), Number(failure.status), ...retryPolicy.transientHostStatuses])].sort((a, b) => a - b);
  return {
    success: successResponse(responses).status,
    throttled: throttled.status,
    retryAfter: retryAfterHeader,
    retried,
    codeField: errorCodeField,
    messageField: errorMessageField,
  };
}

/**
 * The comment before a single-shot sample reads the answer: which answers are the service's, and
 * where the retry policy is (the retrying client of the errors guide follows it).
 */
export function answerComment(marker: string, statuses: SampleStatuses): string {
  return `${marker} Not JSON with a "${statuses.codeField}"? The host answered, not the service. Retrying: see the errors guide.`;
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/** A JSON value written as a JavaScript literal: keys unquoted where JavaScript allows it. */
export function javascriptLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${javascriptLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => {
      const name = identifier.test(key) ? key : JSON.stringify(key);
      return `${inner}${name}: ${javascriptLiteral(item, inner)},`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

export function phpString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A JSON value written as a PHP literal that `wp_json_encode()` turns back into the same JSON. */
export function phpLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return 'array()';
    return `array(\n${value.map((item) => `${inner}${phpLiteral(item, inner)},`).join('\n')}\n${indent})`;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    // An empty PHP array encodes as `[]`; only an object encodes as `{}`.
    if (entries.length === 0) return 'new stdClass()';
    const width = Math.max(...entries.map(([key]) => phpString(key).length));
    const lines = entries.map(([key, item]) => `${inner}${phpString(key).padEnd(width)} => ${phpLiteral(item, inner)},`);
    return `array(\n${lines.join('\n')}\n${indent})`;
  }
  if (typeof value === 'string') return phpString(value);
  return JSON.stringify(value);
}

/** A JSON value written as a Python literal that `json.dumps()` turns back into the same JSON. */
export function pythonLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)},`).join('\n')}\n${indent}}`;
  }
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null) return 'None';
  return JSON.stringify(value);
}

/** A name a program can use for a server variable (`site`). */
export function variableName(name: string): string {
  const cleaned = name.replace(/[^\w]/g, '_');
  return /^\d/.test(cleaned) ? `_${cleaned}` : cleaned;
}

/** Values in an example that are placeholders for the reader to replace, such as `<API_KEY>`. */
export function placeholdersIn(value: unknown): string[] {
  if (typeof value === 'string') return /^<[A-Z][A-Z0-9_]*>$/.test(value) ? [value] : [];
  if (Array.isArray(value)) return [...new Set(value.flatMap(placeholdersIn))];
  if (isRecord(value)) return [...new Set(Object.values(value).flatMap(placeholdersIn))];
  return [];
}

/** The comment that opens a sample: which values the reader must replace. */
/** How the comment that names what a sample needs filled in begins; the request builder leaves that comment as written. */
export const fillInLead = 'Fill in your own values:';

export function fillInComment(marker: string, things: string[]): string {
  return `${marker} ${fillInLead} ${listInWords(things, 'and')}.`;
}

export function thingsToFillIn(endpoint: Endpoint, body: unknown): string[] {
  return [
    ...endpoint.variables.map((variable) => variableName(variable.name)),
    ...placeholdersIn(body).map((placeholder) => `${placeholder} in the body`),
  ];
}

function variableDeclarations(endpoint: Endpoint, declare: (name: string, value: string) => string): string {
  return endpoint.variables.map((variable) => declare(variableName(variable.name), variable.defaultValue)).join('\n');
}

/** The endpoint URL with each server variable spliced in the way the language interpolates. */
export function interpolatedUrl(endpoint: Endpoint, splice: (name: string) => string): string {
  return fillUrl(endpoint.urlTemplate, (name) => splice(variableName(name)));
}

const { connectTimeoutSeconds, attemptTimeoutSeconds } = retryPolicy;

/** The curl command that sends `body` to the endpoint; the quickstart shows the same one. */
export function curlSample(endpoint: Endpoint, body: unknown): string {
  // No comment line: Expressive Code leaves comments out of what a terminal frame's copy button
  // copies, and the copied command should be exactly the one on the page.
  return [
    // `--include` shows the status line and the headers; `--fail-with-body` makes an error status
    // fail the command. curl follows no redirect unless told to, which keeps the POST a POST.
    `curl --include --fail-with-body \\`,
    `  --connect-timeout ${connectTimeoutSeconds} --max-time ${attemptTimeoutSeconds} \\`,
    `  --request ${endpoint.method} ${shellQuote(endpoint.exampleUrl)} \\`,
    `  --header 'Content-Type: application/json' \\`,
    `  --data ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join('\n');
}

function javascriptSample(endpoint: Endpoint, body: unknown, statuses: SampleStatuses): string {
  const code = statuses.codeField;
  return `${fillInComment('//', thingsToFillIn(endpoint, body))}
${variableDeclarations(endpoint, (name, value) => `const ${name} = ${JSON.stringify(value)};`)}

const response = await fetch(\`${interpolatedUrl(endpoint, (name) => `\${${name}}`)}\`, {
  method: ${JSON.stringify(endpoint.method)},
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(${javascriptLiteral(body, '  ')}),
  signal: AbortSignal.timeout(${attemptTimeoutSeconds * 1000}),
  redirect: "manual",
});
${answerComment('//', statuses)}
const type = response.headers.get("Content-Type") ?? "";
const answer = /^application\\/json/i.test(type) ? await response.json() : null;
if (response.status === ${statuses.success}) console.log(answer);
else if (typeof answer?.${code} === "string") throw new Error(answer.${code});
else throw new Error(\`HTTP \${response.status} from the host, ${statuses.retryAfter}: \${response.headers.get("${statuses.retryAfter}")}\`);
`;
}

function wordpressSample(endpoint: Endpoint, body: unknown, statuses: SampleStatuses): string {
  const code = statuses.codeField;
  // `wp_remote_post()` sends a POST, as the one operation asks.
  if (endpoint.method !== 'POST') throw contractError(endpoint.pointer, 'the PHP sample posts with wp_remote_post(), but the operation is not a POST');
  return `<?php
${fillInComment('//', thingsToFillIn(endpoint, body))}
${variableDeclarations(endpoint, (name, value) => `$${name} = ${phpString(value)};`)}

$response = wp_remote_post(
    "${interpolatedUrl(endpoint, (name) => `{$${name}}`)}",
    array(
        'headers'     => array( 'Content-Type' => 'application/json' ),
        'body'        => wp_json_encode( ${phpLiteral(body, '        ')} ),
        'timeout'     => ${attemptTimeoutSeconds},
        'redirection' => 0,
    )
);
if ( is_wp_error( $response ) ) {
    throw new RuntimeException( $response->get_error_message() );
}
${answerComment('//', statuses)}
$type   = (string) wp_remote_retrieve_header( $response, 'content-type' );
$answer = 0 === stripos( $type, 'application/json' ) ? json_decode( wp_remote_retrieve_body( $response ), true ) : null;
$status = wp_remote_retrieve_response_code( $response );
if ( ${statuses.success} === $status ) {
    print_r( $answer );
} elseif ( isset( $answer['${code}'] ) ) {
    throw new RuntimeException( $answer['${code}'] );
} else {
    $wait = wp_remote_retrieve_header( $response, '${statuses.retryAfter.toLowerCase()}' );
    throw new RuntimeException( "HTTP {$status} from the host, ${statuses.retryAfter}: {$wait}" );
}
`;
}

/**
 * A PHP closure that reads the answer's headers into `$headers`, names in lower case, as curl
 * hands them over one line at a time; the plain-PHP sample and the PHP retrying client share it.
 */
export function phpHeaderCollector(indent: string): string {
  return `function ( $curl, string $line ) use ( &$headers ): int {
${indent}    $parts = explode( ':', $line, 2 );
${indent}    if ( 2 === count( $parts ) ) {
${indent}        $headers[ strtolower( trim( $parts[0] ) ) ] = trim( $parts[1] );
${indent}    }
${indent}    return strlen( $line );
${indent}}`;
}

function phpSample(endpoint: Endpoint, body: unknown, statuses: SampleStatuses): string {
  const code = statuses.codeField;
  if (endpoint.method !== 'POST') throw contractError(endpoint.pointer, 'the PHP sample posts with CURLOPT_POST, but the operation is not a POST');
  return `<?php
// Plain PHP with the curl extension (ext-curl): no Composer package to add.
${fillInComment('//', thingsToFillIn(endpoint, body))}
${variableDeclarations(endpoint, (name, value) => `$${name} = ${phpString(value)};`)}

$payload = ${phpLiteral(body)};

$headers = array();
$collect = ${phpHeaderCollector('')};

$curl = curl_init( "${interpolatedUrl(endpoint, (name) => `{$${name}}`)}" );
curl_setopt_array(
    $curl,
    array(
        CURLOPT_POST           => true,
        CURLOPT_HTTPHEADER     => array( 'Content-Type: application/json' ),
        CURLOPT_POSTFIELDS     => json_encode( $payload ),
        CURLOPT_CONNECTTIMEOUT => ${connectTimeoutSeconds},
        CURLOPT_TIMEOUT        => ${attemptTimeoutSeconds},
        CURLOPT_FOLLOWLOCATION => false,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_HEADERFUNCTION => $collect,
    )
);
$text = curl_exec( $curl );
if ( false === $text ) {
    throw new RuntimeException( curl_error( $curl ) );
}
${answerComment('//', statuses)}
$type   = $headers['content-type'] ?? '';
$answer = 0 === stripos( $type, 'application/json' ) ? json_decode( $text, true ) : null;
$status = curl_getinfo( $curl, CURLINFO_RESPONSE_CODE );
if ( ${statuses.success} === $status ) {
    print_r( $answer );
} elseif ( isset( $answer['${code}'] ) ) {
    throw new RuntimeException( $answer['${code}'] );
} else {
    $wait = $headers['${statuses.retryAfter.toLowerCase()}'] ?? '';
    throw new RuntimeException( "HTTP {$status} from the host, ${statuses.retryAfter}: {$wait}" );
}
`;
}

function pythonSample(endpoint: Endpoint, body: unknown, statuses: SampleStatuses): string {
  const code = statuses.codeField;
  return `import requests  # pip install requests

${fillInComment('#', thingsToFillIn(endpoint, body))}
${variableDeclarations(endpoint, (name, value) => `${name} = ${JSON.stringify(value)}`)}

payload = ${pythonLiteral(body)}

response = requests.${endpoint.method.toLowerCase()}(
    f"${interpolatedUrl(endpoint, (name) => `{${name}}`)}",
    json=payload,
    timeout=(${connectTimeoutSeconds}, ${attemptTimeoutSeconds}),
    allow_redirects=False,
)
${answerComment('#', statuses)}
kind = response.headers.get("Content-Type", "")
answer = response.json() if kind.lower().startswith("application/json") else None
if response.status_code == ${statuses.success}:
    print(answer)
elif isinstance(answer, dict) and "${code}" in answer:
    raise SystemExit(answer["${code}"])
else:
    raise SystemExit(f"HTTP {response.status_code} from the host, ${statuses.retryAfter}: {response.headers.get('${statuses.retryAfter}')}")
`;
}

const writers: Record<SampleLanguage, (endpoint: Endpoint, body: Record<string, unknown>, statuses: SampleStatuses) => string> = {
  curl: curlSample,
  javascript: javascriptSample,
  php: phpSample,
  wordpress: wordpressSample,
  python: pythonSample,
};

/** An action's sample in every language of `sampleLanguages`, generated from its request example. */
export function codeSamples(endpoint: Endpoint, body: Record<string, unknown>, statuses: SampleStatuses): CodeSample[] {
  return sampleLanguages.map(({ language, label, highlight }) => ({ language, label, highlight, code: writers[language](endpoint, body, statuses) }));
}
