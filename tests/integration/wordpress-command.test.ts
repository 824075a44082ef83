/**
 * `npm run wordpress` as a newcomer types it: an option a command does not take is refused, not
 * silently ignored, and `--help` names each command's options and the exit codes. No site is
 * started: these answers come before any.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { projectDirectory } from '../support/contract-copy.ts';

const run = (...args: string[]) => spawnSync(process.execPath, ['scripts/wordpress.ts', ...args], { cwd: projectDirectory, encoding: 'utf8' });

describe('npm run wordpress, its options', () => {
  test('an option the command does not take exits 2 and says so', () => {
    for (const [command, option] of [['stop', '--port'], ['status', '--file'], ['generate', '--port']] as const) {
      const refused = run(command, option, '1');
      assert.equal(refused.status, 2, `${command} ${option}: ${refused.stderr}`);
      assert.match(refused.stderr, new RegExp(`^${command} takes no ${option}\\.`));
    }
  });

  test('--help prints the commands, their options and the exit codes', () => {
    const help = run('--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /start \[--port N\]/);
    assert.match(help.stdout, /Exit codes: 0 .*, 1 .*, 2 wrong options, 3 status: the site does not run\./);
  });
});
