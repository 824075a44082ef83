import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Starts a server for a bench in a process of its own and resolves once its output matches
 * `readyPattern`, with the pattern's first group (its URL) and the process; rejects with all it
 * printed when it exits first.
 */
export function startChild(command: string, args: string[], readyPattern: RegExp, cwd: string): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCARF_ANALYTICS: 'false', NO_COLOR: '1' } });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = readyPattern.exec(output);
      if (match !== null) {
        child.stdout?.off('data', onData);
        // Keep draining what the server prints (the sandbox a line per request), so a full pipe never slows it down.
        child.stdout?.resume();
        resolve({ url: match[1] ?? '', child });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}
