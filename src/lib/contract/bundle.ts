import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { stringify } from 'yaml';

/** Where the contract's root file lives, relative to the project. */
export const contractRoot = 'openapi/openapi.yaml';

/** Where the build keeps the bundled document before publishing it as `/openapi/v1.*`. */
export const bundleDirectory = '.generated/openapi';

export interface BundledContract {
  jsonPath: string;
  yamlPath: string;
  /** The bundled document, parsed from `jsonPath`. */
  document: unknown;
}

// Resolved when first needed, so a program that only reads a bundled document (the published
// contract tools) runs where Redocly is not installed.
let redoclyCli: string | undefined;
function redoclyCliPath(): string {
  redoclyCli ??= createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  return redoclyCli;
}

/**
 * How to start the real Redocly CLI on this project's `redocly.yaml`: with the project's own
 * Node, in the project, without telemetry or announcements in its output.
 */
export function redoclyInvocation(args: string[], projectDirectory = process.cwd()) {
  return {
    file: process.execPath,
    args: [redoclyCliPath(), ...args],
    options: {
      cwd: projectDirectory,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
    },
  };
}

/** Runs the real Redocly CLI with this project's `redocly.yaml` and returns its output. */
export function runRedocly(args: string[], projectDirectory = process.cwd()): string {
  const { file, args: fullArgs, options } = redoclyInvocation(args, projectDirectory);
  return execFileSync(file, fullArgs, { ...options, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export class ContractBundleError extends Error {}

/**
 * Bundles the multi-file contract into one JSON and one YAML document with Redocly's own
 * bundler. A YAML syntax error or a dangling `$ref` makes Redocly refuse, and that refusal is
 * raised with Redocly's report, which names the file and the line.
 */
export function bundleContract(
  projectDirectory = process.cwd(),
  root = contractRoot,
  outputDirectory = bundleDirectory,
): BundledContract {
  const absoluteOutput = path.resolve(projectDirectory, outputDirectory);
  mkdirSync(absoluteOutput, { recursive: true });
  const jsonPath = path.join(absoluteOutput, 'v1.json');
  const yamlPath = path.join(absoluteOutput, 'v1.yaml');
  // Written beside the final files and renamed over them, so that a build or a server reading
  // the bundle while another process bundles again never reads half a file.
  const pending = (file: string): string => file.replace(/\.(json|yaml)$/, `.${process.pid}.pending.$1`);
  try {
    runRedocly(['bundle', root, '--output', pending(jsonPath), '--lint-config=error'], projectDirectory);
  } catch (error) {
    rmSync(pending(jsonPath), { force: true });
    const failure = error as { stdout?: string; stderr?: string };
    throw new ContractBundleError(
      `Redocly could not bundle ${root}:\n${failure.stderr ?? ''}${failure.stdout ?? ''}`,
    );
  }
  const document: unknown = JSON.parse(readFileSync(pending(jsonPath), 'utf8'));
  // One Redocly run is enough: the YAML download is the same bundled document, serialised again.
  writeFileSync(pending(yamlPath), stringify(document, { lineWidth: 0 }));
  renameSync(pending(jsonPath), jsonPath);
  renameSync(pending(yamlPath), yamlPath);
  return { jsonPath, yamlPath, document };
}
