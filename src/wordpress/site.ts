import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, existsSync, globSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { neededSubscriptions } from '../conformance/own-sandbox.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { loadGatedContract } from '../sandbox/contract-gate.ts';
import { readSeedFile } from '../sandbox/seed.ts';
import type { Subscription } from '../sandbox/store.ts';
import { pluginDirectory, writePluginContract } from './generate.ts';

/** The key the local site accepts: visibly not a secret. */
export const referenceApiKey = 'wordpress-reference-key-not-a-secret';
export const defaultWordPressPort = 8790;
/** With no seed file, this many subscriptions in every status, so a suite has several of each. */
export const subscriptionsPerStatus = 3;

const wordpressRoot = '/usr/share/wordpress';
const contentDirectory = '/var/lib/wordpress/wp-content';
const debianConfigDirectory = '/etc/wordpress';
const muPluginLoader = path.join(contentDirectory, 'mu-plugins', 'service-reference-loader.php');
const databaseName = 'service_reference';
const databaseUser = 'service_reference';
const databasePassword = 'wordpress-reference-db-password-not-a-secret';
const apacheModules = '/usr/lib/apache2/modules';
const installCommand =
  'apt-get install -y --no-install-recommends wordpress mariadb-server php-mysql php-mbstring php-xml apache2 libapache2-mod-php8.2 php-cli';

/** A clear one-line reason the local WordPress cannot do what was asked. */
export class WordPressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WordPressError';
  }
}

export type Availability = { available: true } | { available: false; reason: string };

function onPath(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** Whether this machine can run the local WordPress, and if not, why (for a test's skip). */
export function wordpressAvailable(): Availability {
  const missing: string[] = [];
  if (!existsSync(path.join(wordpressRoot, 'wp-load.php'))) missing.push('wordpress');
  if (!onPath('mariadbd') || !onPath('mariadb-install-db') || !onPath('mariadb')) missing.push('mariadb-server');
  if (!onPath('apache2')) missing.push('apache2');
  if (globSync(path.join(apacheModules, 'libphp*.so')).length === 0) missing.push('libapache2-mod-php8.2');
  if (!onPath('php')) missing.push('php-cli');
  else if (globSync('/etc/php/*/mods-available/mysqli.ini').length === 0) missing.push('php-mysql');
  if (missing.length > 0) {
    return { available: false, reason: `WordPress is not installed here (missing: ${missing.join(', ')}): ${installCommand}` };
  }
  if (process.getuid?.() !== 0) {
    return { available: false, reason: `the local WordPress writes ${debianConfigDirectory} and starts MariaDB as its own user, so it needs root` };
  }
  return { available: true };
}

interface Paths {
  project: string;
  runtime: string;
  state: string;
  dataDirectory: string;
  mariadbRun: string;
  socket: string;
  mariadbPidFile: string;
  mariadbLog: string;
  apacheConfig: string;
  apachePidFile: string;
  apacheRun: string;
  logs: string;
  siteConfig: string;
  salts: string;
  configName: string;
  debianConfig: string;
  plugin: string;
  siteCli: string;
}

function pathsOf(projectDirectory: string): Paths {
  const project = path.resolve(projectDirectory);
  const runtime = path.join(project, '.wordpress');
  const mariadbRun = path.join(runtime, 'mariadb-run');
  // Debian's wp-config.php takes its site config by this name from Apache's SetEnv; one per project.
  const configName = `service-reference-${createHash('sha256').update(project).digest('hex').slice(0, 10)}`;
  return {
    project,
    runtime,
    state: path.join(runtime, 'state.json'),
    dataDirectory: path.join(runtime, 'mariadb'),
    mariadbRun,
    socket: path.join(mariadbRun, 'mariadb.sock'),
    mariadbPidFile: path.join(mariadbRun, 'mariadb.pid'),
    mariadbLog: path.join(mariadbRun, 'mariadb.log'),
    apacheConfig: path.join(runtime, 'apache.conf'),
    apachePidFile: path.join(runtime, 'apache-run', 'apache.pid'),
    apacheRun: path.join(runtime, 'apache-run'),
    logs: path.join(runtime, 'logs'),
    siteConfig: path.join(runtime, 'site-config.php'),
    salts: path.join(runtime, 'salts.php'),
    configName,
    debianConfig: path.join(debianConfigDirectory, `config-${configName}.php`),
    plugin: path.join(project, pluginDirectory, 'service-reference.php'),
    siteCli: path.join(project, 'src/wordpress/php/site-cli.php'),
  };
}

/** What `.wordpress/state.json` keeps about a started site. */
export interface WordPressState {
  baseUrl: string;
  endpointUrl: string;
  apiKey: string;
  port: number;
  apachePid?: number;
  mariadbPid?: number;
}

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
  /** Receives a line per step. Silent by default. */
  log?: (line: string) => void;
}

export interface StartOptions extends SiteOptions {
  /** The port to serve on; `0` picks a free one. Default 8790. */
  port?: number;
}

const defaultProject = path.resolve(import.meta.dirname, '../..');

function readState(paths: Paths): WordPressState | undefined {
  try {
    return JSON.parse(readFileSync(paths.state, 'utf8')) as WordPressState;
  } catch {
    return undefined;
  }
}

function writeState(paths: Paths, state: WordPressState): void {
  writeFileSync(paths.state, `${JSON.stringify(state, null, 2)}\n`);
}

function alive(pid: number | undefined): pid is number {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function pidFrom(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, seconds: number, ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await ready()) return;
    await sleep(100);
  }
  throw new WordPressError(`${what} did not come up within ${seconds} s`);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[], input?: string): string {
  const result = spawnSync(command, args, { input, encoding: 'utf8' });
  if (result.error !== undefined) throw new WordPressError(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    const detail = `${result.stderr}`.trim().split('\n').filter(Boolean).at(-1) ?? `exit ${result.status}`;
    throw new WordPressError(`${command} ${args[0] ?? ''} failed: ${detail}`);
  }
  return result.stdout;
}

function sql(paths: Paths, statement: string): string {
  return run('mariadb', ['--no-defaults', `--socket=${paths.socket}`, '--user=root', '--batch', '--skip-column-names', '-e', statement]);
}

function mariadbAnswers(paths: Paths): boolean {
  return spawnSync('mariadb', ['--no-defaults', `--socket=${paths.socket}`, '--user=root', '-e', 'SELECT 1'], { stdio: 'ignore' }).status === 0;
}

async function startMariadb(paths: Paths, log: (line: string) => void): Promise<number> {
  const running = pidFrom(paths.mariadbPidFile);
  if (alive(running) && mariadbAnswers(paths)) return running;
  mkdirSync(paths.mariadbRun, { recursive: true });
  chownSync(paths.mariadbRun, uidOf('mysql'), gidOf('mysql'));
  if (!existsSync(path.join(paths.dataDirectory, 'mysql'))) {
    log(`creating the database files in ${paths.dataDirectory}`);
    run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${paths.dataDirectory}`,
      '--user=mysql',
      '--auth-root-authentication-method=socket',
      '--skip-test-db',
    ]);
  }
  const logFile = openSync(paths.mariadbLog, 'a');
  const child = spawn(
    'mariadbd',
    [
      '--no-defaults',
      '--user=mysql',
      `--datadir=${paths.dataDirectory}`,
      `--socket=${paths.socket}`,
      `--pid-file=${paths.mariadbPidFile}`,
      '--skip-networking',
      '--innodb-buffer-pool-size=64M',
      '--performance-schema=OFF',
    ],
    { detached: true, stdio: ['ignore', logFile, logFile] },
  );
  closeSync(logFile);
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new WordPressError('mariadbd could not be started');
  await waitFor(`MariaDB (see ${paths.mariadbLog})`, 30, () => {
    if (!alive(pid)) throw new WordPressError(`mariadbd stopped at once; see ${paths.mariadbLog}`);
    return mariadbAnswers(paths);
  });
  sql(
    paths,
    `CREATE DATABASE IF NOT EXISTS ${databaseName} CHARACTER SET utf8mb4; ` +
      `CREATE USER IF NOT EXISTS '${databaseUser}'@'localhost' IDENTIFIED BY '${databasePassword}'; ` +
      `GRANT ALL ON ${databaseName}.* TO '${databaseUser}'@'localhost';`,
  );
  return pid;
}

function idOf(database: 'passwd' | 'group', name: string): number {
  const line = readFileSync(`/etc/${database}`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const id = Number(line?.split(':')[2]);
  if (!Number.isInteger(id)) throw new WordPressError(`the user or group ${name} does not exist; is ${database === 'passwd' ? 'the package' : 'it'} installed? ${installCommand}`);
  return id;
}
const uidOf = (name: string) => idOf('passwd', name);
const gidOf = (name: string) => idOf('group', name);

function phpString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function writeSiteConfig(paths: Paths, baseUrl: string): void {
  if (!existsSync(paths.salts)) {
    const names = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'];
    const lines = names.map((name) => `define( '${name}', '${randomBytes(32).toString('hex')}' );`);
    writeFileSync(paths.salts, `<?php\n${lines.join('\n')}\n`, { mode: 0o644 });
  }
  const constants: [string, string | boolean][] = [
    ['DB_NAME', databaseName],
    ['DB_USER', databaseUser],
    ['DB_PASSWORD', databasePassword],
    ['DB_HOST', `localhost:${paths.socket}`],
    ['WP_HOME', baseUrl],
    ['WP_SITEURL', baseUrl],
    ['WP_CONTENT_DIR', contentDirectory],
    ['DISABLE_WP_CRON', true],
    ['AUTOMATIC_UPDATER_DISABLED', true],
    ['WP_HTTP_BLOCK_EXTERNAL', true],
    ['SERVICE_REFERENCE_PLUGIN_FILE', paths.plugin],
  ];
  const defines = constants.map(([name, value]) => `define( '${name}', ${typeof value === 'boolean' ? String(value) : phpString(value)} );`);
  writeFileSync(
    paths.siteConfig,
    `<?php\n// Written by \`npm run wordpress -- start\`; rewritten at every start.\n${defines.join('\n')}\nrequire ${phpString(paths.salts)};\n$table_prefix = 'wp_';\n`,
  );
  mkdirSync(debianConfigDirectory, { recursive: true });
  writeFileSync(paths.debianConfig, `<?php\n// The site of ${paths.project}, started by \`npm run wordpress -- start\`.\nrequire ${phpString(paths.siteConfig)};\n`);
  mkdirSync(path.dirname(muPluginLoader), { recursive: true });
  // One loader for every project on the machine: each site's config names the plugin it loads.
  writeFileSync(
    muPluginLoader,
    `<?php\n/**\n * Plugin Name: Service Reference loader\n * Description: Loads the reference plugin that this site's config names (SERVICE_REFERENCE_PLUGIN_FILE). Written by \`npm run wordpress -- start\`.\n */\n\ndefined( 'ABSPATH' ) || exit;\n\nif ( defined( 'SERVICE_REFERENCE_PLUGIN_FILE' ) && is_readable( SERVICE_REFERENCE_PLUGIN_FILE ) ) {\n\trequire_once SERVICE_REFERENCE_PLUGIN_FILE;\n}\n`,
  );
}

function writeApacheConfig(paths: Paths, port: number): void {
  const modules = ['mpm_prefork', 'authz_core', 'dir', 'mime', 'alias', 'rewrite', 'env'];
  const php = globSync(path.join(apacheModules, 'libphp*.so'))[0];
  if (php === undefined) throw new WordPressError(`Apache's PHP module is missing: ${installCommand}`);
  const config = `# Written by \`npm run wordpress -- start\`; rewritten at every start.
ServerRoot /etc/apache2
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${paths.apachePidFile}
DefaultRuntimeDir ${paths.apacheRun}
ErrorLog ${path.join(paths.logs, 'apache-error.log')}
LogLevel warn
User www-data
Group www-data
${modules.map((name) => `LoadModule ${name}_module ${apacheModules}/mod_${name}.so`).join('\n')}
LoadModule php_module ${php}
StartServers 2
MinSpareServers 2
MaxSpareServers 4
MaxRequestWorkers 16
TypesConfig /etc/mime.types
DocumentRoot ${wordpressRoot}
DirectoryIndex index.php
Alias /wp-content ${contentDirectory}
SetEnv WORDPRESS_CONFIG ${paths.configName}
<FilesMatch "\\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
<Directory />
  AllowOverride None
  Require all denied
</Directory>
<Directory ${wordpressRoot}>
  Options FollowSymLinks
  AllowOverride None
  Require all granted
  RewriteEngine On
  RewriteBase /
  RewriteRule ^index\\.php$ - [L]
  RewriteCond %{REQUEST_FILENAME} !-f
  RewriteCond %{REQUEST_FILENAME} !-d
  RewriteRule . /index.php [L]
</Directory>
<Directory ${contentDirectory}>
  Options FollowSymLinks
  AllowOverride None
  Require all granted
</Directory>
`;
  mkdirSync(paths.apacheRun, { recursive: true });
  mkdirSync(paths.logs, { recursive: true });
  writeFileSync(paths.apacheConfig, config);
}

async function answers(url: string, attempts = 2): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    // A kept-alive connection Apache has closed in the meantime fails once; a new one answers.
    return attempts > 1 ? answers(url, attempts - 1) : false;
  }
}

async function startApache(paths: Paths, baseUrl: string): Promise<number> {
  const running = pidFrom(paths.apachePidFile);
  if (alive(running)) return running;
  run('apache2', ['-f', paths.apacheConfig, '-k', 'start']);
  await waitFor(`Apache (see ${path.join(paths.logs, 'apache-error.log')})`, 20, async () => alive(pidFrom(paths.apachePidFile)) && (await answers(`${baseUrl}/wp-json/`)));
  const pid = pidFrom(paths.apachePidFile);
  if (pid === undefined) throw new WordPressError('Apache started but wrote no PID file');
  return pid;
}

interface CliAnswer {
  subscriptions: Subscription[];
  wordpressVersion: string;
}

function siteCli(paths: Paths, port: number, request: Record<string, unknown>): CliAnswer {
  const output = run('php', [paths.siteCli, paths.configName, `127.0.0.1:${port}`], JSON.stringify(request));
  const line = output.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as CliAnswer;
  } catch {
    throw new WordPressError(`the site script answered something else than JSON: ${line.slice(0, 200)}`);
  }
}

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

async function runningState(paths: Paths): Promise<WordPressState | undefined> {
  const state = readState(paths);
  if (state === undefined || !alive(state.apachePid) || !alive(state.mariadbPid)) return undefined;
  return (await answers(`${state.baseUrl}/wp-json/`)) ? state : undefined;
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
  const paths = pathsOf(options.projectDirectory ?? defaultProject);
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

  let port = options.port ?? defaultWordPressPort;
  if (port === 0) port = await freePort();
  const apacheRunning = alive(pidFrom(paths.apachePidFile));
  if (!apacheRunning && !(await portIsFree(port))) throw new WordPressError(`port ${port} on 127.0.0.1 is in use; pick another with --port`);
  const baseUrl = `http://127.0.0.1:${port}`;

  mkdirSync(paths.runtime, { recursive: true });
  const mariadbPid = await startMariadb(paths, log);
  log(`MariaDB runs (PID ${mariadbPid}, socket ${paths.socket})`);
  writeSiteConfig(paths, baseUrl);
  writeApacheConfig(paths, port);
  const installed = siteCli(paths, port, { command: 'install', apiKey: referenceApiKey });
  log(`WordPress ${installed.wordpressVersion} is installed`);
  let seeded: Subscription[] = [];
  if (installed.subscriptions.length === 0) {
    seeded = siteCli(paths, port, { command: 'seed', subscriptions: defaultWordPressSeed(contract) }).subscriptions;
  }
  const state: WordPressState = { baseUrl, endpointUrl: `${baseUrl}${contract.model.endpoint.urlPath}`, apiKey: referenceApiKey, port, mariadbPid };
  writeState(paths, state);
  const apachePid = await startApache(paths, baseUrl);
  const complete = { ...state, apachePid };
  writeState(paths, complete);
  return { ...complete, alreadyRunning: false, seconds: seconds(), seeded };
}

async function stopProcess(pid: number | undefined, what: string, seconds: number): Promise<boolean> {
  if (!alive(pid)) return false;
  process.kill(pid, 'SIGTERM');
  await waitFor(`${what} (PID ${pid}) stopping`, seconds, () => !alive(pid));
  return true;
}

/** Stops Apache and MariaDB by their PIDs; the database stays for the next start. Returns what was stopped. */
export async function stopWordPress(options: SiteOptions = {}): Promise<string[]> {
  const paths = pathsOf(options.projectDirectory ?? defaultProject);
  const stopped: string[] = [];
  const state = readState(paths);
  if (await stopProcess(pidFrom(paths.apachePidFile) ?? state?.apachePid, 'Apache', 20)) stopped.push('Apache');
  if (await stopProcess(pidFrom(paths.mariadbPidFile) ?? state?.mariadbPid, 'MariaDB', 60)) stopped.push('MariaDB');
  if (state !== undefined) {
    const { apachePid: _apache, mariadbPid: _mariadb, ...rest } = state;
    writeState(paths, rest);
  }
  return stopped;
}

export interface WordPressStatus {
  running: boolean;
  state?: WordPressState;
  /** Why it does not run, in a sentence. */
  reason?: string;
}

export async function wordpressStatus(options: SiteOptions = {}): Promise<WordPressStatus> {
  const paths = pathsOf(options.projectDirectory ?? defaultProject);
  const running = await runningState(paths);
  if (running !== undefined) return { running: true, state: running };
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
  const paths = pathsOf(options.projectDirectory ?? defaultProject);
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

/** Removes the site's runtime files (database included) after a stop. */
export function removeWordPressFiles(options: SiteOptions = {}): void {
  const paths = pathsOf(options.projectDirectory ?? defaultProject);
  rmSync(paths.runtime, { recursive: true, force: true });
  rmSync(paths.debianConfig, { force: true });
}
