/** `npm pack` of a package folder, as both published npm packages (the client and the contract tools) are made. */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

/** Packs `packageDirectory` into `outDirectory` without running its scripts; returns the tarball's absolute path. */
export function packFolder(packageDirectory: string, outDirectory: string): string {
  const destination = path.resolve(outDirectory);
  mkdirSync(destination, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], { cwd: packageDirectory, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  ) as { filename: string }[];
  const [first] = packed;
  if (first === undefined) throw new Error(`npm pack of ${packageDirectory} wrote no tarball.`);
  return path.join(destination, first.filename);
}
