/**
 * The local WordPress with the reference plugin (`npm run wordpress`): start, stop, status, seed and
 * reset. The parts live beside it by concept: `host-system.ts` (Debian's locations, what is
 * installed), `processes.ts`, `mariadb.ts`, `apache.ts`, `site-config.ts`, `site-cli.ts` and
 * `state-file.ts`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { neededSubscriptions } from '../conformance/own-sandbox.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { loadGatedContract } from '../sandbox/contract-gate.ts';
import { readSeedFile } from '../sandbox/seed.ts';
import type { Subscription } from '../sandbox/store.ts';
import { startApache, writeApacheConfig } from './apache.ts';
import { writePluginContract } from './generate.ts';
import { pathsOf, WordPressError, wordpressAvailable, type Paths } from './host-system.ts';
import { startMariadb } from './mariadb.ts';
import { freePort, portIsFree } from '../lib/local-servers.ts';
import { alive, pidFrom, stopProcess } from './processes.ts';
import { siteCli } from './site-cli.ts';
import { publishPlugin, removeServiceFiles, removeServiceRun } from './service-files.ts';
import { writeSiteConfig, type PluginLoading } from './site-config.ts';
import { defaultApiKey } from '../sandbox/seed.ts';
import { readState, restProblem, runningState, writeState, type WordPressState } from './state-file.ts';

export { WordPressError, wordpressAvailable, type Availability } from './host-system.ts';
export type { WordPressState } from './state-file.ts';

/** The key the local site accepts: visibly not a secret. */
export const referenceApiKey = 'wordpress-reference-key-not-a-secret';
export const defaultWordPressPort = 8790;
/** With no seed file, this many subscriptions in every status, so a suite has several of each. */
export const subscriptionsPerStatus = 3;

export interface WordPressSite extends WordPressState {
  /** The site was already running; nothing was started. */
  alreadyRunning: boolean;
  /** How long the start took, in seconds. */
  seconds: number;
  /** The subscriptions the start seeded (none when the database already had some). */
  seeded: Subscription[];
}

export interface SiteOptions {
  projectDirectory?: string;
  /** Another site of the checkout, by name, with its own database and files (`pathsOf`); default the one `npm run wordpress` runs. */
  site?: string;
  /** Receives a line per step. Silent by default. */
  log?: (line: string) => void;
}

export interface StartOptions extends SiteOptions {
  /** The port to serve on; `0` picks a free one. Default 8790. */
  port?: number;
  /**
   * `must-use` (the default): the plugin from the checkout, loaded as a must-use plugin, with the
   * reference key and seed. `installed`: no plugin at all, for whoever installs the zip into the
   * site's plugins folder (`pathsOf(...).pluginsDirectory`) and activates it (`activatePlugin`).
   */
  pluginLoading?: PluginLoading;
  /** WP_ENVIRONMENT_TYPE in the site's config; default `local`. */
  environmentType?: string;
  /** The administrator's password, set when WordPress is installed (a test signs in with it); default a random one nobody knows. */
  adminPassword?: string;
}

const defaultProject = path.resolve(import.meta.dirname, '../..');

/**
 * With no seed file: in every status, as many subscriptions as one run of the conformance suite
 * needs there, and at least `subscriptionsPerStatus`, numbered from 1 status by status, so that
 * `npm run conformance` against a fresh site reaches every case.
 */
export function defaultWordPressSeed(contract: ExecutableContract): Subscription[] {
  const needed = neededSubscriptions(contract);
  const statuses = contract.model.lifecycle.states.flatMap((status) => Array.from({ length: Math.max(subscriptionsPerStatus, needed.get(status) ?? 0) }, () => status));
  return statuses.map((status, index) => ({ id: index + 1, status }));
}

/**
 * Starts MariaDB and Apache with WordPress on 127.0.0.1, installs WordPress and the reference
 * plugin, writes the plugin's contract from the gated document, and seeds an empty database. A
 * site already running is left as it is.
 */
export async function startWordPress(options: StartOptions = {}): Promise<WordPressSite> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const availability = wordpressAvailable();
  if (!availability.available) throw new WordPressError(availability.reason);
  const paths = pathsOf(options.projectDirectory ?? defaultProject, options.site);
  const seconds = () => (Date.now() - started) / 1000;

  const running = await runningState(paths);
  if (running !== undefined && (options.port === undefined || options.port === 0 || options.port === running.port)) {
    return { ...running, alreadyRunning: true, seconds: seconds(), seeded: [] };
  }
  if (running !== undefined) {
    throw new WordPressError(`WordPress already runs at ${running.baseUrl}; stop it first (npm run wordpress -- stop) to serve on port ${options.port}`);
  }

  const contract = await loadGatedContract(paths.project);
  writePluginContract(contract, paths.project);
  log('wrote the plugin contract from the OpenAPI document');
  publishPlugin(paths);

  let port = options.port ?? defaultWordPressPort;
  if (port === 0) port = await freePort();
  const apacheRunning = alive(pidFrom(paths.apachePidFile));
  if (!apacheRunning && !(await portIsFree(port))) throw new WordPressError(`port ${port} on 127.0.0.1 is in use; pick another with --port`);
  const baseUrl = `http://127.0.0.1:${port}`;

  mkdirSync(paths.runtime, { recursive: true });
  const mariadbPid = await startMariadb(paths, log);
  log(`MariaDB runs (PID ${mariadbPid}, socket ${paths.socket})`);
  const pluginLoading = options.pluginLoading ?? 'must-use';
  writeSiteConfig(paths, baseUrl, { pluginLoading, environmentType: options.environmentType ?? 'local' });
  writeApacheConfig(paths, port);
  let seeded: Subscription[] = [];
  if (pluginLoading === 'must-use') {
    const installed = siteCli(paths, port, { command: 'install', apiKey: referenceApiKey });
    log(`WordPress ${installed.wordpressVersion} is installed`);
    if (installed.subscriptions.length === 0) {
      seeded = siteCli(paths, port, { command: 'seed', subscriptions: defaultWordPressSeed(contract) }).subscriptions;
    }
  } else {
    const installed = siteCli(paths, port, { command: 'install', withoutPlugin: true, ...(options.adminPassword === undefined ? {} : { adminPassword: options.adminPassword }) });
    log(`WordPress ${installed.wordpressVersion} is installed, without the plugin`);
  }
  // An installed plugin starts with the sandbox's key, as its activation sets it.
  const apiKey = pluginLoading === 'must-use' ? referenceApiKey : defaultApiKey;
  const state: WordPressState = { baseUrl, endpointUrl: `${baseUrl}${contract.model.endpoint.urlPath}`, apiKey, port, mariadbPid };
  writeState(paths, state);
  const apachePid = await startApache(paths, baseUrl);
  const complete = { ...state, apachePid };
  writeState(paths, complete);
  return { ...complete, alreadyRunning: false, seconds: seconds(), seeded };
}

/**
 * Stops Apache and MariaDB by their PIDs and removes what they read while running (sockets,
 * configs, the plugin served); the database stays for the next start. Returns what was stopped.
 */
export async function stopWordPress(options: SiteOptions = {}): Promise<string[]> {
  const paths = pathsOf(options.projectDirectory ?? defaultProject, options.site);
  const stopped: string[] = [];
  const state = readState(paths);
  if (await stopProcess(pidFrom(paths.apachePidFile) ?? state?.apachePid, 'Apache', 20)) stopped.push('Apache');
  if (await stopProcess(pidFrom(paths.mariadbPidFile) ?? state?.mariadbPid, 'MariaDB', 60)) stopped.push('MariaDB');
  if (state !== undefined) {
    const { apachePid: _apache, mariadbPid: _mariadb, ...rest } = state;
    writeState(paths, rest);
  }
  removeServiceRun(paths);
  return stopped;
}

/** After `generate`: a running site serves the plugin as just generated. Returns whether one runs. */
export async function republishPlugin(options: SiteOptions = {}): Promise<boolean> {
  const paths = pathsOf(options.projectDirectory ?? defaultProject, options.site);
  if ((await runningState(paths)) === undefined) return false;
  publishPlugin(paths);
  return true;
}

export interface WordPressStatus {
  running: boolean;
  state?: WordPressState;
  /** Why it does not run, in a sentence. */
  reason?: string;
  /** It runs, but its REST index does not answer 2xx: what it answers. */
  problem?: string;
}

export async function wordpressStatus(options: SiteOptions = {}): Promise<WordPressStatus> {
  const paths = pathsOf(options.projectDirectory ?? defaultProject, options.site);
  const running = await runningState(paths);
  if (running !== undefined) {
    const problem = await restProblem(running);
    return { running: true, state: running, ...(problem === undefined ? {} : { problem }) };
  }
  const state = readState(paths);
  if (state === undefined) return { running: false, reason: 'it was never started here (npm run wordpress -- start)' };
  return { running: false, state, reason: 'it is stopped (npm run wordpress -- start)' };
}

async function requireRunning(paths: Paths): Promise<WordPressState> {
  const running = await runningState(paths);
  if (running === undefined) throw new WordPressError('WordPress does not run; start it with: npm run wordpress -- start');
  return running;
}

export interface SeedOptions extends SiteOptions {
  /** A seed file (`[{"id": 1, "status": "active"}, ...]`) or the subscriptions themselves; default `defaultWordPressSeed`. */
  seed?: string | readonly Subscription[];
}

async function seedSubscriptions(options: SeedOptions, command: 'seed' | 'reset'): Promise<Subscription[]> {
  const paths = pathsOf(options.projectDirectory ?? defaultProject, options.site);
  const state = await requireRunning(paths);
  const contract = await loadGatedContract(paths.project);
  const { seed } = options;
  const subscriptions = typeof seed === 'string' ? readSeedFile(contract, seed) : (seed ?? defaultWordPressSeed(contract));
  const placedIds = new Set(subscriptions.map((subscription) => subscription.id));
  const answer = siteCli(paths, state.port, { command, subscriptions });
  return answer.subscriptions.filter((subscription) => placedIds.has(subscription.id));
}

/** Places subscriptions in the given statuses (by default several in every status); returns them as stored. */
export function seedWordPress(options: SeedOptions = {}): Promise<Subscription[]> {
  return seedSubscriptions(options, 'seed');
}

/** Drops every subscription and its history, then seeds again. */
export function resetWordPress(options: SeedOptions = {}): Promise<Subscription[]> {
  return seedSubscriptions(options, 'reset');
}

/**
 * Activates a plugin in the site's plugins folder with WordPress's own `activate_plugin()`, as the
 * Plugins screen's Activate link does; returns what the site then holds.
 */
export async function activatePlugin(plugin: string, options: SiteOptions = {}): Promise<Subscription[]> {
  const paths = pathsOf(options.projectDirectory ?? defaultProject, options.site);
  const state = await requireRunning(paths);
  return siteCli(paths, state.port, { command: 'activate', plugin }).subscriptions;
}

/** What an installed plugin's reset button does: the sandbox's key and subscriptions again, no history, no throttling. */
export async function restorePluginDefaults(options: SiteOptions = {}): Promise<Subscription[]> {
  const paths = pathsOf(options.projectDirectory ?? defaultProject, options.site);
  const state = await requireRunning(paths);
  return siteCli(paths, state.port, { command: 'restore' }).subscriptions;
}

/** What an installed plugin's throttle setting does: the next `next` requests answer 429 with Retry-After `retryAfter`. */
export async function throttlePlugin(next: number, retryAfter: number, options: SiteOptions = {}): Promise<void> {
  const paths = pathsOf(options.projectDirectory ?? defaultProject, options.site);
  const state = await requireRunning(paths);
  siteCli(paths, state.port, { command: 'throttle', next, retryAfter });
}

/** Removes the site's runtime files (database included) after a stop. */
export function removeWordPressFiles(options: SiteOptions = {}): void {
  const paths = pathsOf(options.projectDirectory ?? defaultProject, options.site);
  rmSync(paths.runtime, { recursive: true, force: true });
  removeServiceFiles(paths);
}
