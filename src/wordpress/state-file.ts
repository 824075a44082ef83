/** `.wordpress/state.json`: where a started site serves and the PIDs that serve it. */
import { readFileSync, writeFileSync } from 'node:fs';
import { answerStatus } from './apache.ts';
import { portIsFree } from '../lib/local-servers.ts';
import type { Paths } from './host-system.ts';
import { alive } from './processes.ts';

/** What `.wordpress/state.json` keeps about a started site. */
export interface WordPressState {
  baseUrl: string;
  endpointUrl: string;
  apiKey: string;
  port: number;
  apachePid?: number;
  mariadbPid?: number;
}

export function readState(paths: Paths): WordPressState | undefined {
  try {
    return JSON.parse(readFileSync(paths.state, 'utf8')) as WordPressState;
  } catch {
    return undefined;
  }
}

export function writeState(paths: Paths, state: WordPressState): void {
  writeFileSync(paths.state, `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * The site runs when its Apache and MariaDB do and its port is taken, whatever `/wp-json/` answers:
 * a site that answers 500 (its plugin without a contract, say) still runs, and `generate` or
 * `reset` must reach it to mend it.
 */
export async function runningState(paths: Paths): Promise<WordPressState | undefined> {
  const state = readState(paths);
  if (state === undefined || !alive(state.apachePid) || !alive(state.mariadbPid)) return undefined;
  return (await portIsFree(state.port)) ? undefined : state;
}

/** Why a running site's REST index does not answer 2xx, in words; undefined when it does. */
export async function restProblem(state: WordPressState): Promise<string | undefined> {
  const url = `${state.baseUrl}/wp-json/`;
  const status = await answerStatus(url);
  if (status === undefined) return `${url} does not answer`;
  return status >= 200 && status < 300 ? undefined : `${url} answers ${status}`;
}
