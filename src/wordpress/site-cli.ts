/** `php/site-cli.php`: installs WordPress and places subscriptions, one JSON request in, one JSON line out. */
import type { Subscription } from '../sandbox/store.ts';
import { WordPressError, type Paths } from './host-system.ts';
import { run } from './processes.ts';

export interface CliAnswer {
  subscriptions: Subscription[];
  wordpressVersion: string;
}

export function siteCli(paths: Paths, port: number, request: Record<string, unknown>): CliAnswer {
  const output = run('php', [paths.siteCli, paths.configName, `127.0.0.1:${port}`], JSON.stringify(request));
  const line = output.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as CliAnswer;
  } catch {
    throw new WordPressError(`the site script answered something else than JSON: ${line.slice(0, 200)}`);
  }
}
