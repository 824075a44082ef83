import { readFileSync } from 'node:fs';

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
