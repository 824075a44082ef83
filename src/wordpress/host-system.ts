/**
 * Where Debian puts WordPress, MariaDB and Apache, whether this machine has them, and where one
 * project's site keeps its runtime files (`.wordpress/`).
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

export function pathsOf(projectDirectory: string): Paths {
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
