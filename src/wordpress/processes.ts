/** The child processes the local site is made of: started, found by PID, waited for, stopped. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { alive } from '../lib/local-servers.ts';
import { installCommand, WordPressError } from './host-system.ts';

export { alive, pidFrom } from '../lib/local-servers.ts';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(what: string, seconds: number, ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await ready()) return;
    await sleep(100);
  }
  throw new WordPressError(`${what} did not come up within ${seconds} s`);
}

export function run(command: string, args: string[], input?: string): string {
  const result = spawnSync(command, args, { input, encoding: 'utf8' });
  if (result.error !== undefined) throw new WordPressError(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    const detail = `${result.stderr}`.trim().split('\n').filter(Boolean).at(-1) ?? `exit ${result.status}`;
    throw new WordPressError(`${command} ${args[0] ?? ''} failed: ${detail}`);
  }
  return result.stdout;
}

export async function stopProcess(pid: number | undefined, what: string, seconds: number): Promise<boolean> {
  if (!alive(pid)) return false;
  process.kill(pid, 'SIGTERM');
  await waitFor(`${what} (PID ${pid}) stopping`, seconds, () => !alive(pid));
  return true;
}

export function idOf(database: 'passwd' | 'group', name: string): number {
  const line = readFileSync(`/etc/${database}`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const id = Number(line?.split(':')[2]);
  if (!Number.isInteger(id)) throw new WordPressError(`the user or group ${name} does not exist; is ${database === 'passwd' ? 'the package' : 'it'} installed? ${installCommand}`);
  return id;
}
export const uidOf = (name: string) => idOf('passwd', name);
export const gidOf = (name: string) => idOf('group', name);
