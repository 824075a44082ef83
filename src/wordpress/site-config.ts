/** The PHP configuration Debian's `wp-config.php` reads for this project's site, and the must-use loader. */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { contentDirectory, debianConfigDirectory, muPluginLoader, type Paths } from './host-system.ts';
import { databaseName, databasePassword, databaseUser } from './mariadb.ts';
import { serviceDirectory, writeServiceFile } from './service-files.ts';

function phpString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** How the site has the reference plugin: loaded as a must-use plugin, or installed from the zip by whoever runs the site. */
export type PluginLoading = 'must-use' | 'installed';

export interface SiteConfigOptions {
  pluginLoading: PluginLoading;
  /** `wp_get_environment_type()`: the plugin refuses to run where it is `production`. */
  environmentType: string;
}

export function writeSiteConfig(paths: Paths, baseUrl: string, options: SiteConfigOptions = { pluginLoading: 'must-use', environmentType: 'local' }): void {
  serviceDirectory(paths.serviceState);
  serviceDirectory(paths.serviceRun);
  serviceDirectory(paths.pluginsDirectory);
  if (!existsSync(paths.salts)) {
    const names = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'];
    const lines = names.map((name) => `define( '${name}', '${randomBytes(32).toString('hex')}' );`);
    writeServiceFile(paths.salts, `<?php\n${lines.join('\n')}\n`, { reader: 'www-data' });
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
    ['WP_ENVIRONMENT_TYPE', options.environmentType],
    // Each site's own wp-content/plugins/, so a plugin installed on one is never seen by another.
    ['WP_PLUGIN_DIR', paths.pluginsDirectory],
    // The must-use loader loads the plugin a site's config names; a site that installs the zip names none.
    ...(options.pluginLoading === 'must-use' ? [['SERVICE_REFERENCE_PLUGIN_FILE', paths.plugin] as [string, string]] : []),
    // Every notice, warning and deprecation logged, none shown in an answer. WP_DEBUG_LOG stays
    // false so that WordPress leaves PHP's error_log unset: mod_php then writes to Apache's
    // ErrorLog (.wordpress/logs/apache-error.log), a file Apache opens as root, where a log path
    // of WordPress's own would have to be writable by www-data.
    ['WP_DEBUG', true],
    ['WP_DEBUG_DISPLAY', false],
    ['WP_DEBUG_LOG', false],
  ];
  const defines = constants.map(([name, value]) => `define( '${name}', ${typeof value === 'boolean' ? String(value) : phpString(value)} );`);
  writeServiceFile(
    paths.siteConfig,
    `<?php\n// Written by \`npm run wordpress -- start\`; rewritten at every start.\n${defines.join('\n')}\nrequire ${phpString(paths.salts)};\n$table_prefix = 'wp_';\n`,
    { reader: 'www-data' },
  );
  mkdirSync(debianConfigDirectory, { recursive: true });
  writeServiceFile(paths.debianConfig, `<?php\n// The site of ${paths.project}, started by \`npm run wordpress -- start\`; removed by \`stop\`.\nrequire ${phpString(paths.siteConfig)};\n`, {
    reader: 'www-data',
  });
  mkdirSync(path.dirname(muPluginLoader), { recursive: true });
  chmodSync(path.dirname(muPluginLoader), 0o755);
  // One loader for every project on the machine: each site's config names the plugin it loads.
  writeServiceFile(
    muPluginLoader,
    `<?php\n/**\n * Plugin Name: Service Reference loader\n * Description: Loads the reference plugin that this site's config names (SERVICE_REFERENCE_PLUGIN_FILE). Written by \`npm run wordpress -- start\`.\n */\n\ndefined( 'ABSPATH' ) || exit;\n\nif ( defined( 'SERVICE_REFERENCE_PLUGIN_FILE' ) && is_readable( SERVICE_REFERENCE_PLUGIN_FILE ) ) {\n\trequire_once SERVICE_REFERENCE_PLUGIN_FILE;\n}\n`,
  );
}
