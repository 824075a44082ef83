/** `.wordpress/state.json`: where a started site serves and the PIDs that serve it. */
import { readFileSync, writeFileSync } from 'node:fs';
import { answers } from './apache.ts';
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

export async function runningState(paths: Paths): Promise<WordPressState | undefined> {
  const state = readState(paths);
  if (state === undefined || !alive(state.apachePid) || !alive(state.mariadbPid)) return undefined;
  return (await answers(`${state.baseUrl}/wp-json/`)) ? state : undefined;
}
