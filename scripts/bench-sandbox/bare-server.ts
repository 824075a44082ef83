/**
 * The simplest program that does the sandbox's I/O, for the benchmark to compare against: bare
 * `node:http` and `node:sqlite` in WAL mode, one transaction per action (`bare-actions.ts`: read
 * the status, write the new one and a history row with its note, under the same schema and
 * foreign-key check as the sandbox's store), JSON in and out, no validation, no lifecycle table.
 * Its answer carries the headers the sandbox sends on a 200 (those WordPress core adds to every
 * REST answer, and `Allow`), written out once, so that both put the same bytes on the wire; the
 * benchmark compares the two answers' header names and body sizes before it measures.
 *
 *   node scripts/bench-sandbox/bare-server.ts DB_FILE SUBSCRIPTIONS STATUS ACTION=TARGET...
 *
 * Prints its URL on the first line of standard output.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { openBareActions } from './bare-actions.ts';

// Bare, without the scripts' helper: positionals only, and any option refused.
const { positionals } = parseArgs({ options: {}, allowPositionals: true });
const [file = ':memory:', count = '16', initial = '', ...moves] = positionals;
const act = openBareActions(file, Number(count), initial, Object.fromEntries(moves.map((move) => move.split('='))) as Record<string, string>);
let headers: Record<string, string> = {};

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const answer = act(Buffer.concat(chunks));
    response.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(answer) });
    response.end(answer);
  });
});
server.listen(0, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  headers = {
    'x-robots-tag': 'noindex',
    link: `<${url}/wp-json/>; rel="https://api.w.org/"`,
    'x-content-type-options': 'nosniff',
    'access-control-expose-headers': 'X-WP-Total, X-WP-TotalPages, Link',
    'access-control-allow-headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
    'content-type': 'application/json; charset=UTF-8',
    allow: 'POST',
  };
  process.stdout.write(`${url}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
