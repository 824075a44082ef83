/** Apache with mod_php serving WordPress on 127.0.0.1, configured from scratch at every start. */
import { globSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { apacheModules, contentDirectory, installCommand, wordpressRoot, WordPressError, type Paths } from './host-system.ts';
import { alive, pidFrom, run, waitFor } from './processes.ts';
import { serviceDirectory, writeServiceFile } from './service-files.ts';

export function writeApacheConfig(paths: Paths, port: number): void {
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
# mod_php logs a notice or deprecation at Apache's level notice: kept, with Apache's own at warn.
LogLevel warn php:info
User www-data
Group www-data
${modules.map((name) => `LoadModule ${name}_module ${apacheModules}/mod_${name}.so`).join('\n')}
LoadModule php_module ${php}
# \`generate\` replaces the plugin under a running site: PHP checks every file's time at every
# request, so the next request runs the new code, not OPcache's copy of the old.
php_admin_value opcache.validate_timestamps 1
php_admin_value opcache.revalidate_freq 0
# PHP's notices go to the ErrorLog above (no error_log of its own), where the tests read them.
php_admin_flag log_errors on
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
  serviceDirectory(paths.apacheRun);
  mkdirSync(paths.logs, { recursive: true });
  writeServiceFile(paths.apacheConfig, config);
}

/** The HTTP status `url` answers with, or undefined when nothing answers. */
export async function answerStatus(url: string, attempts = 2): Promise<number | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    // A kept-alive connection Apache has closed in the meantime fails once; a new one answers.
    return attempts > 1 ? answerStatus(url, attempts - 1) : undefined;
  }
}

export async function answers(url: string): Promise<boolean> {
  const status = await answerStatus(url);
  return status !== undefined && status >= 200 && status < 300;
}

export async function startApache(paths: Paths, baseUrl: string): Promise<number> {
  const running = pidFrom(paths.apachePidFile);
  if (alive(running)) return running;
  run('apache2', ['-f', paths.apacheConfig, '-k', 'start']);
  await waitFor(`Apache (see ${path.join(paths.logs, 'apache-error.log')})`, 20, async () => alive(pidFrom(paths.apachePidFile)) && (await answers(`${baseUrl}/wp-json/`)));
  const pid = pidFrom(paths.apachePidFile);
  if (pid === undefined) throw new WordPressError('Apache started but wrote no PID file');
  return pid;
}
