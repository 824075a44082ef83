import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The contract fixture lives in contract-copy.ts; the reference tests import it from here too. */
export { bundledDocument, projectDirectory } from './contract-copy.ts';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** `Date.now()` when the request arrived. */
  at: number;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** `drop` closes the connection without an answer; `hang` keeps it open and never answers. */
  fault?: 'drop' | 'hang';
}

/**
 * A real HTTP server on a free local port that records every request and answers with the
 * scripted answers in turn (the last one repeats), so samples can be run against it unchanged
 * except for the host they call. An answer can also be a fault: a dropped connection, or one
 * that never answers.
 */
export async function startRecordingServer(answers: ScriptedAnswer[] | ((request: RecordedRequest) => ScriptedAnswer)) {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(recorded);
      const answer =
        typeof answers === 'function' ? answers(recorded) : (answers[requests.length - 1] ?? answers.at(-1));
      if (answer?.fault === 'drop') {
        request.socket.destroy();
        return;
      }
      if (answer?.fault === 'hang') return;
      response.writeHead(answer?.status ?? 500, answer?.headers ?? {});
      response.end(answer?.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Kept-alive and hanging connections would hold the server open.
        server.closeAllConnections();
      }),
  };
}
