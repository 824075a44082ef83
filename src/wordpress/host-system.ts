/**
 * Where Debian puts WordPress, MariaDB and Apache, whether this machine has them, and where one
 * project's site keeps its files: what only this program reads in the checkout (`.wordpress/`:
 * state and logs), and what MariaDB (as `mysql`) and Apache (as `www-data`) read or write outside
 * it, since a checkout may sit in a directory only its owner may enter (`mktemp -d`, `/root`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, globSync } from 'node:fs';
import path from 'node:path';
import { pluginDirectory } from './generate.ts';

export const wordpressRoot = '/usr/share/wordpress';
export const contentDirectory = '/var/lib/wordpress/wp-content';
export const debianConfigDirectory = '/etc/wordpress';
export const muPluginLoader = path.join(contentDirectory, 'mu-plugins', 'service-reference-loader.php');
export const apacheModules = '/usr/lib/apache2/modules';
/** Kept from one start to the next (the database and the salts), one directory per checkout. */
export const serviceStateRoot = '/var/lib/service-reference';
/** Lives while the site runs (sockets, PIDs, the configs, the plugin served), removed on stop. */
export const serviceRunRoot = '/run/service-reference';
export const installCommand =
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

export interface Paths {
  project: string;
  /** In the checkout, for this program only: `state.json` and the logs. */
  runtime: string;
  /** Outside the checkout, kept between start and stop: the database and the salts. */
  serviceState: string;
  /** Outside the checkout, removed on stop: what the service users read while the site runs. */
  serviceRun: string;
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
  /** The plugin in the checkout, where `generate` writes its contract. */
  pluginSource: string;
  /** The copy of it that WordPress loads as a must-use plugin. */
  plugin: string;
  /** The site's `wp-content/plugins/` (WP_PLUGIN_DIR), kept between stop and start as the database is. */
  pluginsDirectory: string;
  siteCli: string;
}

/**
 * A checkout's sites: the default one, or another by name (`site`), with a database, a config and
 * files of its own, so a test can install the plugin zip without touching the must-use site.
 */
export function pathsOf(projectDirectory: string, site?: string): Paths {
  const project = path.resolve(projectDirectory);
  // Beside `.wordpress/`, not in it: removing the default site's files leaves another site's running.
  const runtime = site === undefined ? path.join(project, '.wordpress') : path.join(project, '.wordpress-sites', site);
  // One name per checkout and site, so two checkouts on one machine never share a database or a config.
  const checkoutId = createHash('sha256')
    .update(site === undefined ? project : `${project}\0${site}`)
    .digest('hex')
    .slice(0, 10);
  const serviceState = path.join(serviceStateRoot, checkoutId);
  const serviceRun = path.join(serviceRunRoot, checkoutId);
  const mariadbRun = path.join(serviceRun, 'mariadb');
  const apacheRun = path.join(serviceRun, 'apache');
  // Debian's wp-config.php takes its site config by this name from Apache's SetEnv.
  const configName = `service-reference-${checkoutId}`;
  return {
    project,
    runtime,
    serviceState,
    serviceRun,
    state: path.join(runtime, 'state.json'),
    dataDirectory: path.join(serviceState, 'mariadb'),
    mariadbRun,
    socket: path.join(mariadbRun, 'mariadb.sock'),
    mariadbPidFile: path.join(mariadbRun, 'mariadb.pid'),
    mariadbLog: path.join(runtime, 'logs', 'mariadb.log'),
    apacheConfig: path.join(serviceRun, 'apache.conf'),
    apachePidFile: path.join(apacheRun, 'apache.pid'),
    apacheRun,
    logs: path.join(runtime, 'logs'),
    siteConfig: path.join(serviceRun, 'site-config.php'),
    salts: path.join(serviceState, 'salts.php'),
    configName,
    debianConfig: path.join(debianConfigDirectory, `config-${configName}.php`),
    pluginSource: path.join(project, pluginDirectory),
    plugin: path.join(serviceRun, 'plugin', path.basename(pluginDirectory), 'service-reference.php'),
    pluginsDirectory: path.join(serviceState, 'plugins'),
    siteCli: path.join(project, 'src/wordpress/php/site-cli.php'),
  };
}
