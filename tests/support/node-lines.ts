/**
 * Node's own binaries for the lines a package claims, from the npm registry's `node-linux-<arch>`
 * packages, unpacked once into the cache `.ci/run` keeps its Node in
 * (`~/.cache/subscription-lifecycle-docs/node-<version>/bin/node`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { toolsNodeEngineRange } from '../../src/contract-tools/tools-package.ts';
import { oldestSupportedNode } from '../../src/lib/node-engine.ts';

const architectures: Readonly<Record<string, string>> = { x64: 'x64', arm64: 'arm64' };

/** The cache folder of one Node version, as .ci/run names it. */
function nodeHome(version: string): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'subscription-lifecycle-docs', `node-${version}`);
}

/** The path of Node `version`'s binary, fetched and unpacked when missing; or why it cannot be had here. */
export function nodeBinary(version: string): { path: string } | { unavailable: string } {
  const home = nodeHome(version);
  const binary = path.join(home, 'bin', 'node');
  if (existsSync(binary)) return { path: binary };
  const arch = architectures[process.arch];
  if (process.platform !== 'linux' || arch === undefined) return { unavailable: `the registry's node packages are fetched for Linux on x64 or arm64, not ${process.platform} on ${process.arch}` };
  mkdirSync(home, { recursive: true });
  let tarball: string;
  try {
    tarball = execFileSync('npm', ['pack', '--silent', `node-linux-${arch}@${version}`], { cwd: home, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } }).trim();
  } catch (error) {
    const reason = String((error as { stderr?: unknown }).stderr ?? error);
    if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|network/i.test(reason)) return { unavailable: `the npm registry is unreachable, so Node ${version} cannot be fetched (${reason.split('\n')[0]})` };
    throw error;
  }
  execFileSync('tar', ['-xzf', path.join(home, tarball), '-C', home, '--strip-components=1', 'package/bin/node']);
  rmSync(path.join(home, tarball));
  return { path: binary };
}

/** The newest line's release the contract tools are proven on; raised by hand when a newer one is wanted. */
const newestToolsLineVersion = '26.12.1';

/** The Node versions besides the project's own that the published contract tools are proven on: their floor (`engines.node`), and the newest line. */
export function toolsNodeVersions(): string[] {
  const floor = oldestSupportedNode(toolsNodeEngineRange).split('.');
  return [[...floor, '0', '0'].slice(0, 3).join('.'), newestToolsLineVersion];
}
