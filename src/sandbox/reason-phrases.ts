/**
 * The reason phrases the sandbox writes in a host page's title and the page's panel writes in a
 * status line, as Node's `http.STATUS_CODES` has them (tests/unit/sandbox-in-browser.test.ts
 * compares the two), kept here so that the sandbox's answers need no `node:` module in a browser.
 */
const reasonPhrases: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(status: number): string | undefined {
  return reasonPhrases[status];
}

export function knownReasonPhrases(): Readonly<Record<number, string>> {
  return reasonPhrases;
}
