/**
 * What the tab keeps of the panel in its session storage: the sandbox's subscriptions and their
 * history, and the host answers asked for; never a body, a key or a note typed in a body.
 */
import type { SimulationState } from '../../../sandbox/in-browser/simulation.ts';

export interface PendingHostAnswers {
  throttle: number;
  retryAfter: string;
  hostError: number;
  hostStatus: number;
}

export interface KeptState {
  simulation: SimulationState;
  pending: PendingHostAnswers;
}

export const storageKey = 'try-it-sandbox';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function isPending(value: unknown): value is PendingHostAnswers {
  return isRecord(value) && isCount(value.throttle) && typeof value.retryAfter === 'string' && isCount(value.hostError) && isCount(value.hostStatus);
}

function isSimulation(value: unknown): value is SimulationState {
  if (!isRecord(value) || !isRecord(value.store) || !isRecord(value.queued)) return false;
  const { subscriptions, history } = value.store;
  const { throttle, hostError } = value.queued;
  return (
    Array.isArray(subscriptions) &&
    subscriptions.every((subscription) => isRecord(subscription) && isCount(subscription.id) && typeof subscription.status === 'string') &&
    Array.isArray(history) &&
    history.every(isRecord) &&
    isRecord(throttle) &&
    isCount(throttle.count) &&
    typeof throttle.retryAfter === 'string' &&
    isRecord(hostError) &&
    isCount(hostError.count) &&
    isCount(hostError.status)
  );
}

/** The kept state, or undefined for none and for one that is not what the panel writes (an older build's, a tampered one): the seed is used then. */
export function readKept(): KeptState | undefined {
  try {
    const text = sessionStorage.getItem(storageKey);
    if (text === null) return undefined;
    const value: unknown = JSON.parse(text);
    if (isRecord(value) && isSimulation(value.simulation) && isPending(value.pending)) return { simulation: value.simulation, pending: value.pending };
    sessionStorage.removeItem(storageKey);
    return undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the state, less the notes of the history: a note is text the reader typed in a body. */
export function keep(state: KeptState): void {
  const history = state.simulation.store.history.map((entry) => ({ ...entry, note: null }));
  try {
    sessionStorage.setItem(storageKey, JSON.stringify({ ...state, simulation: { ...state.simulation, store: { ...state.simulation.store, history } } } satisfies KeptState));
  } catch {
    // A tab that refuses storage still works; it only forgets on reload.
  }
}
