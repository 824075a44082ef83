/** The site's own MariaDB: a data directory of the checkout's own (kept between starts), a socket, no network. */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { WordPressError, type Paths } from './host-system.ts';
import { alive, pidFrom, run, waitFor } from './processes.ts';
import { serviceDirectory } from './service-files.ts';

export const databaseName = 'service_reference';
export const databaseUser = 'service_reference';
export const databasePassword = 'wordpress-reference-db-password-not-a-secret';

export function sql(paths: Paths, statement: string): string {
  return run('mariadb', ['--no-defaults', `--socket=${paths.socket}`, '--user=root', '--batch', '--skip-column-names', '-e', statement]);
}

export function mariadbAnswers(paths: Paths): boolean {
  return spawnSync('mariadb', ['--no-defaults', `--socket=${paths.socket}`, '--user=root', '-e', 'SELECT 1'], { stdio: 'ignore' }).status === 0;
}

export async function startMariadb(paths: Paths, log: (line: string) => void): Promise<number> {
  const running = pidFrom(paths.mariadbPidFile);
  if (alive(running) && mariadbAnswers(paths)) return running;
  serviceDirectory(paths.serviceState);
  serviceDirectory(paths.mariadbRun, { owner: 'mysql' });
  mkdirSync(paths.logs, { recursive: true });
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
