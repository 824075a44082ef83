/** A store that cannot be used: the file, or what it holds, is not the sandbox's. */
export class StoreError extends Error {
  constructor(location: string, problem: string) {
    super(`${location}: ${problem}`);
    this.name = 'StoreError';
  }
}
