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
