/**
 * An action whose method a client library cannot have: its name is one of the client's own members
 * (`send`, say), no name the language allows, or the name of another action's method. Every
 * generator throws it with the action's place in the document, so the gate names the contract's
 * line rather than only the document.
 */
export class UnnamableActionError extends Error {
  override name = 'UnnamableActionError';
  /** The JSON pointer of the action's request schema, where the gate points. */
  readonly pointer: string;

  constructor(message: string, pointer: string) {
    super(message);
    this.pointer = pointer;
  }
}

/** How a language writes and allows a client's methods. */
export interface MethodNaming {
  /** The method an action becomes. */
  methodName: (identifier: string) => string;
  /** Whether the language and the client allow that name: not a keyword, not one of the client's own members. */
  allowed: (name: string) => boolean;
  /** The method as a message shows it: `pauseSubscription()`, `the PHP method pauseSubscription()`. */
  shown: (name: string) => string;
}

/**
 * Each action's method, refusing with the action's place in the document an action whose method
 * the language or the client cannot have, and two actions that would share one.
 */
export function claimMethodNames(actions: readonly { identifier: string; pointer: string }[], naming: MethodNaming): Map<string, string> {
  const claimed = new Map<string, string>();
  for (const { identifier, pointer } of actions) {
    const name = naming.methodName(identifier);
    if (!naming.allowed(name)) throw new UnnamableActionError(`The action ${identifier} would be ${naming.shown(name)}, which the client cannot have: rename it in the generator's naming.`, pointer);
    const earlier = claimed.get(name);
    if (earlier !== undefined) throw new UnnamableActionError(`The actions ${earlier} and ${identifier} would both be ${naming.shown(name)}.`, pointer);
    claimed.set(name, identifier);
  }
  return claimed;
}
