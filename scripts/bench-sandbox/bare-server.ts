/**
 * The simplest program that does the sandbox's I/O, for the benchmark to compare against: bare
 * `node:http` and `node:sqlite` in WAL mode, one transaction per action (read the status, write
 * the new one and a history row, under the same schema and foreign-key check as the sandbox's
 * store), JSON in and out, no validation, no lifecycle table. Its answer carries the headers the
 * sandbox sends on a 200 (those WordPress core adds to every REST answer, and `Allow`), written
 * out once, so that both put the same bytes on the wire; the benchmark compares the two answers'
 * header names and body sizes before it measures.
 *
 *   node scripts/bench-sandbox/bare-server.ts DB_FILE SUBSCRIPTIONS STATUS ACTION=TARGET...
 *
 * Prints its URL on the first line of standard output.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';

// Bare, without the scripts' helper: positionals only, and any option refused.
const { positionals } = parseArgs({ options: {}, allowPositionals: true });
const [file = ':memory:', count = '16', initial = '', ...moves] = positionals;
const database = new DatabaseSync(file, { timeout: 5000 });
database.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;
  CREATE TABLE IF NOT EXISTS subscriptions (id INTEGER PRIMARY KEY, status TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS history (seq INTEGER PRIMARY KEY AUTOINCREMENT, subscription_id INTEGER NOT NULL REFERENCES subscriptions (id), action TEXT NOT NULL, previous_status TEXT NOT NULL, status TEXT NOT NULL, note TEXT, recorded_at TEXT NOT NULL);`);
const insert = database.prepare('INSERT OR IGNORE INTO subscriptions (id, status) VALUES (?, ?)');
for (let id = 1; id <= Number(count); id += 1) insert.run(id, initial);
const select = database.prepare('SELECT status FROM subscriptions WHERE id = ?');
const update = database.prepare('UPDATE subscriptions SET status = ? WHERE id = ?');
const record = database.prepare('INSERT INTO history (subscription_id, action, previous_status, status, note, recorded_at) VALUES (?, ?, ?, ?, ?, ?)');
const targets: Record<string, string> = Object.fromEntries(moves.map((move) => move.split('=')));
let headers: Record<string, string> = {};

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { action: string; subscription_id: number; note?: string };
    const to = targets[body.action] ?? initial;
    database.exec('BEGIN IMMEDIATE');
    const row = select.get(body.subscription_id) as { status: string } | undefined;
    const previous = row?.status ?? initial;
    update.run(to, body.subscription_id);
    record.run(body.subscription_id, body.action, previous, to, body.note ?? null, new Date().toISOString());
    database.exec('COMMIT');
    const answer = JSON.stringify({ success: true, action: body.action, subscription_id: body.subscription_id, previous_status: previous, status: to, changed: previous !== to });
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
