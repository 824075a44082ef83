import type { ContractSource } from './contract-source.ts';

/** What differs between running a command from this repository and from the published package. */
export interface CommandContext {
  /** How the user starts the command, for the usage line: `npm run sandbox --`, `subscription-lifecycle sandbox`. */
  invocation: string;
  contract: ContractSource;
}

/** The exit codes both commands share. */
export const exitCode = { ok: 0, failed: 1, usage: 2 } as const;
