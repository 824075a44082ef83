/**
 * What the servers this project starts by hand (WordPress, the benches, the tests' hosts) need of
 * the machine: whether a process still runs, the PID its file holds, and a port on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Whether a process with this PID runs (one another user owns counts: it exists). */
export function alive(pid: number | undefined): pid is number {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The PID a PID file holds; undefined when the file is missing, still being written or not a PID. */
export function pidFrom(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether nothing listens on the port yet. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A port the system has just handed out as free. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('the system handed out no port'))));
    });
  });
}
