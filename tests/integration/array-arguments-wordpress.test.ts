/**
 * The sandbox validates and sanitises an array argument as WordPress does, proved against
 * WordPress's own functions: `rest_validate_value_from_schema` and `rest_sanitize_value_from_schema`
 * of the installed WordPress (wp-includes/rest-api.php, with `wp_parse_list` and
 * `wp_is_numeric_array` taken from its functions.php), run by php-cli with the few translation
 * and error helpers they call standing in for the rest of WordPress. Every case gets the same
 * code, message and sanitised value from both.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sanitizeArgument, validateArgument } from '../../src/sandbox/argument-validation.ts';
import type { ArgumentSchema } from '../../src/lib/contract/route-arguments.ts';
import { wordpressRoot } from '../../src/wordpress/host-system.ts';

const schema: ArgumentSchema = { type: 'array', items: { type: 'string', maxLength: 8 }, minItems: 1, maxItems: 3, uniqueItems: true };
const integers: ArgumentSchema = { type: 'array', items: { type: 'integer', minimum: 1 } };

const cases: unknown[] = [
  ['travel', 'winter'], 'travel, winter', 'travel', ' a ,, b ', [], '', { colour: 'blue' }, { 0: 'x', 1: 'y' }, {},
  ['travel', 7], ['travel', 'wintertime'], ['a', 'b', 'c', 'd'], ['a', 'a'], ['1', 1], true, false, 5, [null], [['nested']],
];

/** The functions of functions.php the array checks call, copied out of the installed WordPress. */
function functionsOf(file: string, names: readonly string[]): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  return names
    .map((name) => {
      const start = lines.findIndex((line) => line.startsWith(`function ${name}(`));
      const end = lines.findIndex((line, index) => index > start && line === '}');
      assert.ok(start >= 0 && end > start, `${name} is not in ${file}`);
      return lines.slice(start, end + 1).join('\n');
    })
    .join('\n');
}

const runner = `<?php
function __($text) { return $text; }
function _n($single, $plural, $number) { return $number == 1 ? $single : $plural; }
function number_format_i18n($number) { return (string) $number; }
class WP_Error { public $code; public $message; function __construct($code = '', $message = '', $data = '') { $this->code = $code; $this->message = $message; } }
function is_wp_error($thing) { return $thing instanceof WP_Error; }
function _doing_it_wrong() {}
require __DIR__ . '/functions.php';
require $argv[1];
$input = json_decode(file_get_contents('php://stdin'), true);
$answers = array();
foreach ($input['cases'] as $value) {
  $valid = rest_validate_value_from_schema($value, $input['schema'], 'tags');
  $answers[] = is_wp_error($valid) ? array('code' => $valid->code, 'message' => $valid->message) : array('value' => rest_sanitize_value_from_schema($value, $input['schema'], 'tags'));
}
echo json_encode($answers);
`;

test('an array argument gets from the sandbox what it gets from WordPress', (context) => {
  const php = spawnSync('php', ['--version'], { encoding: 'utf8' });
  if (php.status !== 0) {
    context.skip('php-cli is not installed');
    return;
  }
  const directory = mkdtempSync(path.join(tmpdir(), 'array-arguments-'));
  try {
    writeFileSync(path.join(directory, 'functions.php'), `<?php\n${functionsOf(path.join(wordpressRoot, 'wp-includes/functions.php'), ['wp_parse_list', 'wp_is_numeric_array'])}\n`);
    writeFileSync(path.join(directory, 'runner.php'), runner);
    for (const argumentSchema of [schema, integers]) {
      const run = spawnSync('php', [path.join(directory, 'runner.php'), path.join(wordpressRoot, 'wp-includes/rest-api.php')], {
        input: JSON.stringify({ schema: argumentSchema, cases }),
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      const wordpress = JSON.parse(run.stdout) as unknown[];
      const sandbox = cases.map((value) => {
        const problem = validateArgument('tags', value, argumentSchema);
        return problem === undefined ? { value: sanitizeArgument(value, argumentSchema) } : { code: problem.code, message: problem.message };
      });
      assert.deepEqual(sandbox, wordpress, JSON.stringify(argumentSchema));
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
