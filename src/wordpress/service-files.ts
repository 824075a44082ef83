/**
 * Files the service users read or write, placed outside the checkout with explicit owners and
 * modes: a checkout may sit in a directory only its owner may enter, and the umask of whoever
 * runs `npm run wordpress` (077 is common) must not decide whether Apache can read them.
 */
import { chmodSync, chownSync, cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serviceRunRoot, serviceStateRoot, type Paths } from './host-system.ts';
import { gidOf, uidOf } from './processes.ts';

/** Only this user may write it; `reader` (a group) or everybody may read it. */
export type Access = { owner?: 'mysql'; reader?: 'www-data' };

function applyAccess(target: string, directory: boolean, access: Access): void {
  if (access.owner !== undefined) chownSync(target, uidOf(access.owner), gidOf(access.owner));
  else if (access.reader !== undefined) chownSync(target, 0, gidOf(access.reader));
  const everybody = access.reader === undefined;
  chmodSync(target, directory ? (everybody ? 0o755 : 0o750) : everybody ? 0o644 : 0o640);
}

/** Makes the directory, and any of its parents up to the service roots, with the given access. */
export function serviceDirectory(directory: string, access: Access = {}): void {
  for (const root of [serviceStateRoot, serviceRunRoot]) {
    if (directory.startsWith(`${root}/`)) {
      mkdirSync(root, { recursive: true });
      chmodSync(root, 0o755);
      for (let parent = path.dirname(directory); parent.length > root.length; parent = path.dirname(parent)) {
        mkdirSync(parent, { recursive: true });
        chmodSync(parent, 0o755);
      }
    }
  }
  mkdirSync(directory, { recursive: true });
  applyAccess(directory, true, access);
}

export function writeServiceFile(file: string, content: string, access: Access = {}): void {
  writeFileSync(file, content);
  applyAccess(file, false, access);
}

function everybodyReads(target: string): void {
  const entries = readdirSync(target, { withFileTypes: true });
  chmodSync(target, 0o755);
  for (const entry of entries) {
    const child = path.join(target, entry.name);
    if (entry.isDirectory()) everybodyReads(child);
    else chmodSync(child, 0o644);
  }
}

/**
 * Copies the plugin from the checkout to where Apache may read it; at every start, and again
 * after `generate` while the site runs, so the site serves the contract as last generated.
 */
export function publishPlugin(paths: Paths): void {
  const copy = path.dirname(paths.plugin);
  serviceDirectory(path.dirname(copy));
  rmSync(copy, { recursive: true, force: true });
  cpSync(paths.pluginSource, copy, { recursive: true });
  everybodyReads(copy);
}

/** What `stop` leaves: nothing of the run directory; the database and salts stay for the next start. */
export function removeServiceRun(paths: Paths): void {
  rmSync(paths.serviceRun, { recursive: true, force: true });
  rmSync(paths.debianConfig, { force: true });
}

/** Everything outside the checkout, the database included. */
export function removeServiceFiles(paths: Paths): void {
  removeServiceRun(paths);
  rmSync(paths.serviceState, { recursive: true, force: true });
}
