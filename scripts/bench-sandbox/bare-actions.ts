/**
 * The bare server's work for one action, without HTTP: the body parsed, one transaction that reads
 * the status and writes it and a history row, the answer serialised. `bare-server.ts` serves it;
 * `answer-cost.ts` calls it in process beside the sandbox's own answer.
 */
import { DatabaseSync } from 'node:sqlite';

/** Opens the bare store on `file` with `count` subscriptions in `initial`; `moves` maps an action to the status it leads to. */
export function openBareActions(file: string, count: number, initial: string, moves: Record<string, string>): (body: Uint8Array) => string {
  const database = new DatabaseSync(file, { timeout: 5000 });
  database.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;
    CREATE TABLE IF NOT EXISTS subscriptions (id INTEGER PRIMARY KEY, status TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS history (seq INTEGER PRIMARY KEY AUTOINCREMENT, subscription_id INTEGER NOT NULL REFERENCES subscriptions (id), action TEXT NOT NULL, previous_status TEXT NOT NULL, status TEXT NOT NULL, note TEXT, recorded_at TEXT NOT NULL);`);
  const insert = database.prepare('INSERT OR IGNORE INTO subscriptions (id, status) VALUES (?, ?)');
  for (let id = 1; id <= count; id += 1) insert.run(id, initial);
  const select = database.prepare('SELECT status FROM subscriptions WHERE id = ?');
  const update = database.prepare('UPDATE subscriptions SET status = ? WHERE id = ?');
  const record = database.prepare('INSERT INTO history (subscription_id, action, previous_status, status, note, recorded_at) VALUES (?, ?, ?, ?, ?, ?)');
  const decoder = new TextDecoder();
  return (raw) => {
    const body = JSON.parse(decoder.decode(raw)) as { action: string; subscription_id: number; note?: string };
    const to = moves[body.action] ?? initial;
    database.exec('BEGIN IMMEDIATE');
    const row = select.get(body.subscription_id) as { status: string } | undefined;
    const previous = row?.status ?? initial;
    update.run(to, body.subscription_id);
    record.run(body.subscription_id, body.action, previous, to, body.note ?? null, new Date().toISOString());
    database.exec('COMMIT');
    return JSON.stringify({ success: true, action: body.action, subscription_id: body.subscription_id, previous_status: previous, status: to, changed: previous !== to });
  };
}
