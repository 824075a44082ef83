import type { SimulatedAnswer, SimulatedRequest, SimulationState } from './simulation.ts';
import type { Subscription } from '../store.ts';

/** What the page asks the sandbox's worker. */
export type WorkerQuestion =
  | { kind: 'start'; id: number; state?: SimulationState }
  | { kind: 'send'; id: number; request: SimulatedRequest }
  | { kind: 'throttle'; id: number; count: number; retryAfter: string }
  | { kind: 'host-error'; id: number; count: number; status: number }
  | { kind: 'reset'; id: number };

/** What the worker answers: the state after the question (for the tab's session storage), and the answer to a send. */
export interface WorkerReply {
  id: number;
  state: SimulationState;
  subscriptions: Subscription[];
  apiKey: string;
  answer?: SimulatedAnswer;
  /** How long the sandbox took to answer, in milliseconds. */
  elapsedMs?: number;
  /** The question could not be answered (a state kept by an older build, say): the worker started from the seed. */
  problem?: string;
}
