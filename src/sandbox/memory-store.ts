import type { HistoryEntry, StatusChange, Subscription, SubscriptionStore } from './store.ts';
import { StoreError } from './store-error.ts';

/** What a memory store holds, as plain data: to keep in a tab's session storage and to start from again. */
export interface MemoryStoreState {
  subscriptions: Subscription[];
  history: HistoryEntry[];
}

export interface MemoryStore extends SubscriptionStore {
  /** A copy of what the store holds now. */
  state(): MemoryStoreState;
}

/**
 * The sandbox's store in memory, behind the same interface as the SQLite one, for the places that
 * have no `node:sqlite`: the product-information server on workerd and the page's worker. One
 * request runs at a time there, so `act` is its transaction: `decide` reads and decides before
 * anything is written, and the change is written whole afterwards, so a refusal, or an error
 * thrown while deciding, leaves nothing behind.
 */
export function createMemoryStore(knownStatuses: readonly string[], from: MemoryStoreState = { subscriptions: [], history: [] }, now: () => string = () => new Date().toISOString()): MemoryStore {
  const location = ':memory:';
  const known = new Set(knownStatuses);
  const unknown = from.subscriptions.find((subscription) => !known.has(subscription.status));
  if (unknown !== undefined) {
    throw new StoreError(location, `subscription ${unknown.id} has the status "${unknown.status}", which the contract does not know`);
  }
  const statuses = new Map(from.subscriptions.map(({ id, status }) => [id, status]));
  const history: HistoryEntry[] = from.history.map((entry) => ({ ...entry }));

  const list = (): Subscription[] => [...statuses.entries()].sort(([a], [b]) => a - b).map(([id, status]) => ({ id, status }));

  return {
    location,
    isEmpty: () => statuses.size === 0,
    addMissing(subscriptions) {
      const added: Subscription[] = [];
      for (const { id, status } of subscriptions) {
        if (statuses.has(id) || added.some((subscription) => subscription.id === id)) continue;
        added.push({ id, status });
      }
      for (const { id, status } of added) statuses.set(id, status);
      return added;
    },
    list,
    history: (subscriptionId) => history.filter((entry) => entry.subscriptionId === subscriptionId).map((entry) => ({ ...entry })),
    act<T>(subscriptionId: number, decide: (current: string | undefined) => { change?: StatusChange; result: T }): T {
      const current = statuses.get(subscriptionId);
      const { change, result } = decide(current);
      if (change !== undefined && current !== undefined) {
        if (!known.has(change.to)) throw new StoreError(location, `the status "${change.to}" is not one the contract knows`);
        const entry: HistoryEntry = { subscriptionId, action: change.action, previousStatus: current, status: change.to, note: change.note ?? null, recordedAt: now() };
        statuses.set(subscriptionId, change.to);
        history.push(entry);
      }
      return result;
    },
    close() {},
    state: () => ({ subscriptions: list(), history: history.map((entry) => ({ ...entry })) }),
  };
}
