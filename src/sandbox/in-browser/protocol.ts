import type { LiteralValue } from '../../lib/contract/model.ts';
import type { SimulatedAnswer, SimulatedRequest, SimulationState } from './simulation.ts';
import type { Subscription } from '../store.ts';

/** What the page asks the sandbox's worker. */
export type WorkerQuestion =
  /** `siteUrl`: the site the simulation stands for, which `Link` names; by default the request's `Host`. */
  | { kind: 'start'; id: number; state?: SimulationState; siteUrl?: string }
  | { kind: 'send'; id: number; request: SimulatedRequest }
  | { kind: 'check'; id: number; request: SimulatedRequest }
  | { kind: 'throttle'; id: number; count: number; retryAfter: string }
  | { kind: 'host-error'; id: number; count: number; status: number }
  | { kind: 'reset'; id: number };

/** What the panel needs of the contract, sent once by the worker, so that the page carries none of it. */
export interface PanelContract {
  method: string;
  urlPath: string;
  credential: string;
  selector: string;
  subject: string;
  /** The members of a success body that say what happened, for the panel's status line. */
  members: { changed: string; status: string };
  /** Each action's request example, by identifier. */
  examples: Record<string, Record<string, unknown>>;
  throttleHeader: string;
  hostErrorHeader: string;
  hostErrorStatuses: readonly number[];
  /** The most requests the throttle switch may ask for, as `npm run sandbox -- --throttle-next` takes. */
  maxThrottled: number;
  /** The Retry-After the throttle switch asks for when its field is empty, as the command's `--retry-after` defaults to. */
  retryAfterDefault: string;
  states: readonly string[];
  /** The values a field takes, by name, for the controls that offer them. */
  enums: Record<string, readonly LiteralValue[]>;
}

/** What the worker answers: the state after the question (for the tab's session storage), and the answer to a send or a check. */
export interface WorkerReply {
  id: number;
  state: SimulationState;
  subscriptions: Subscription[];
  apiKey: string;
  contract?: PanelContract;
  answer?: SimulatedAnswer;
  /** How long the sandbox took to answer, in milliseconds. */
  elapsedMs?: number;
  /** The saved state could not be used (one kept by an older build, say): the worker started from the seed. */
  problem?: string;
}
