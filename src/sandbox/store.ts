import { DatabaseSync } from 'node:sqlite';
import { StoreError } from './store-error.ts';

export interface Subscription {
  id: number;
  status: string;
}

/** One change of a subscription's status, as the sandbox keeps it. */
export interface HistoryEntry {
  subscriptionId: number;
  action: string;
  previousStatus: string;
  status: string;
  note: string | null;
  recordedAt: string;
}

/** A status change to write, decided inside the transaction that read the current status. */
export interface StatusChange {
  action: string;
  to: string;
  note?: string;
}

export interface SubscriptionStore {
  /** Where the data lives: a file, or `:memory:`. */
  readonly location: string;
  isEmpty(): boolean;
  /** Adds the subscriptions whose IDs are not there yet; those that are keep their status. */
  addMissing(subscriptions: readonly Subscription[]): Subscription[];
  list(): Subscription[];
  history(subscriptionId: number): HistoryEntry[];
  /**
   * Reads the subscription's status and writes what `decide` makes of it, in one transaction
   * taken with `BEGIN IMMEDIATE`: the write lock comes first, so two requests on one subscription,
   * from this process or another one on the same file, run one after the other, and a failure
   * rolls everything back.
   */
  act<T>(subscriptionId: number, decide: (current: string | undefined) => { change?: StatusChange; result: T }): T;
  close(): void;
}

export { StoreError };

interface SubscriptionRow {
  id: number;
  status: string;
}

interface HistoryRow {
  subscription_id: number;
  action: string;
  previous_status: string;
  status: string;
  note: string | null;
  recorded_at: string;
}

/**
 * Opens (or creates) the sandbox's SQLite database with `node:sqlite`. A file is kept in WAL
 * mode, with `synchronous = NORMAL`: a commit survives the process ending at any moment, and
 * only a crash of the whole machine could lose the last commits. `knownStatuses` guards against a
 * file written by another contract, whose statuses the sandbox could not answer about.
 */
export function openStore(location: string, knownStatuses: readonly string[], busyTimeoutMs = 5000): SubscriptionStore {
  let database: DatabaseSync;
  try {
    database = new DatabaseSync(location, { timeout: busyTimeoutMs });
    database.exec(`PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA foreign_keys = ON;
      CREATE TABLE IF NOT EXISTS subscriptions (
        id INTEGER PRIMARY KEY,
        status TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS history (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        subscription_id INTEGER NOT NULL REFERENCES subscriptions (id),
        action TEXT NOT NULL,
        previous_status TEXT NOT NULL,
        status TEXT NOT NULL,
        note TEXT,
        recorded_at TEXT NOT NULL
      );`);
  } catch (error) {
    throw new StoreError(location, `cannot be used as the sandbox's SQLite database: ${(error as Error).message}`);
  }

  const select = database.prepare('SELECT status FROM subscriptions WHERE id = ?');
  const update = database.prepare('UPDATE subscriptions SET status = ? WHERE id = ?');
  const record = database.prepare(
    'INSERT INTO history (subscription_id, action, previous_status, status, note, recorded_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insert = database.prepare('INSERT OR IGNORE INTO subscriptions (id, status) VALUES (?, ?)');
  const listAll = database.prepare('SELECT id, status FROM subscriptions ORDER BY id');
  const historyOf = database.prepare(
    'SELECT subscription_id, action, previous_status, status, note, recorded_at FROM history WHERE subscription_id = ? ORDER BY seq',
  );
  const known = new Set(knownStatuses);

  const list = (): Subscription[] => (listAll.all() as unknown as SubscriptionRow[]).map(({ id, status }) => ({ id, status }));
  const unknown = list().find((subscription) => !known.has(subscription.status));
  if (unknown !== undefined) {
    database.close();
    throw new StoreError(
      location,
      `subscription ${unknown.id} has the status "${unknown.status}", which the contract does not know; start with another --db file`,
    );
  }

  // Prepared once, as the statements are: \`exec\` would compile them again for every action.
  const begin = database.prepare('BEGIN IMMEDIATE');
  const commit = database.prepare('COMMIT');

  function transaction<T>(work: () => T): T {
    begin.run();
    try {
      const result = work();
      commit.run();
      return result;
    } catch (error) {
      if (database.isTransaction) database.exec('ROLLBACK');
      throw error;
    }
  }

  return {
    location,
    isEmpty: () => list().length === 0,
    addMissing(subscriptions) {
      return transaction(() => subscriptions.filter(({ id, status }) => insert.run(id, status).changes === 1));
    },
    list,
    history(subscriptionId) {
      return (historyOf.all(subscriptionId) as unknown as HistoryRow[]).map((row) => ({
        subscriptionId: row.subscription_id,
        action: row.action,
        previousStatus: row.previous_status,
        status: row.status,
        note: row.note,
        recordedAt: row.recorded_at,
      }));
    },
    act(subscriptionId, decide) {
      return transaction(() => {
        const row = select.get(subscriptionId) as { status: string } | undefined;
        const { change, result } = decide(row?.status);
        if (change !== undefined && row !== undefined) {
          update.run(change.to, subscriptionId);
          record.run(subscriptionId, change.action, row.status, change.to, change.note ?? null, new Date().toISOString());
        }
        return result;
      });
    },
    close() {
      if (database.isOpen) database.close();
    },
  };
}
