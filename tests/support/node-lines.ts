/**
 * Node binaries of other lines than the project's own, for the tests that prove the published
 * contract tools on every Node line they claim. Each comes from the npm registry's
 * `node-linux-<arch>` package (the registry is the one network these machines reach), unpacked
 * once into the cache `.ci/run` keeps its Node in, and reused by every later run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { toolsNodeEngineRange } from '../../src/contract-tools/tools-package.ts';
import { oldestSupportedNode } from '../../src/lib/node-engine.ts';

/** The newest line's release the tests run; raised by hand when a newer one is wanted. */
const newestLineVersion = '26.12.1';

/** The oldest Node the tools claim, as a full version (`22.13` → `22.13.0`). */
function floorVersion(): string {
  const parts = oldestSupportedNode(toolsNodeEngineRange).split('.');
  return [...parts, '0', '0'].slice(0, 3).join('.');
}

/** The Node versions besides the project's own that the tools are proven on: their floor, and the newest line. */
export function toolsNodeVersions(): string[] {
  return [floorVersion(), newestLineVersion];
}

function cacheDirectory(version: string): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'subscription-lifecycle-docs', `node-${version}`);
}

/**
 * The folder holding the `node` binary of `version`, fetched on first use; throws with what
 * failed when the registry cannot be reached, so the test says why rather than skipping quietly.
 */
export function nodeBinDirectory(version: string): string {
  const home = cacheDirectory(version);
  const binary = path.join(home, 'bin', 'node');
  if (existsSync(binary)) return path.dirname(binary);
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  mkdirSync(home, { recursive: true });
  try {
    const tarball = execFileSync('npm', ['pack', '--silent', `node-linux-${arch}@${version}`], { cwd: home, encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
    execFileSync('tar', ['-xzf', path.join(home, tarball), '-C', home, '--strip-components=1', 'package/bin/node']);
    rmSync(path.join(home, tarball));
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw new Error(`Node ${version} could not be fetched from the npm registry (node-linux-${arch}@${version}): ${(error as Error).message}`);
  }
  return path.dirname(binary);
}
