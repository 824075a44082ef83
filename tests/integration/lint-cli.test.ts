/**
 * `scripts/lint.ts` as CI and people run it: a child process, its output and its exit code.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { copyContract, projectDirectory } from '../support/contract-copy.ts';
import { runLint } from '../support/lint-run.ts';

const lint = runLint;

test('exits 0 on the real contract and says so', () => {
  const run = lint('--project', projectDirectory);
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  assert.match(run.stdout, /^✔ The contract passes the gate \(Redocly bundle, Redocly lint, contract checks, reference model, Arazzo workflows, compatibility with the latest release, client libraries against the latest release; [\d.]+ s\)\.$/m);
});

test('exits 1 on a broken copy, naming the file, the rule and the line, with GitHub annotations', () => {
  const copy = copyContract();
  try {
    copy.write('openapi/components/responses/TooManyRequests.yaml', copy.read('openapi/components/responses/TooManyRequests.yaml').replace(/^headers:\n[\s\S]*$/m, ''));
    copy.replace('openapi/openapi.yaml', 'url: https://{site}/wp-json/service/v1', 'url: http://{site}/wp-json/service/v1');
    const run = lint('--project', copy.directory, '--format=github-actions');
    assert.equal(run.status, 1, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /^openapi\/components\/responses\/TooManyRequests\.yaml: .*Retry-After.*\(rules 7\.1, 8\.2\)\. \[Redocly rule rule\/rate-limit-has-headers\]$/m);
    assert.match(run.stdout, /^openapi\/openapi\.yaml: line \d+: Server URL "http:\/\/\{site\}\/wp-json\/service\/v1" uses http:\/\/.*\[single-endpoint: rule 1\.2, 4\.1b, 4\.1-r1, 9\.1\]$/m);
    assert.match(run.stdout, /^::error file=openapi\/openapi\.yaml,line=\d+,title=Contract gate%3A single-endpoint%3A rule 1\.2%2C 4\.1b%2C 4\.1-r1%2C 9\.1::Server URL "http/m);
    assert.match(run.stdout, /^::error file=openapi\/components\/responses\/TooManyRequests\.yaml,.*::.*Retry-After/m);
    // The model names the list of responses, in the file that lists them, not the root that refers to it.
    assert.match(run.stdout, /^openapi\/paths\/action\.yaml: line \d+: POST \/action: no response carries a `Retry-After` header/m);
    assert.match(run.stdout, /^✖ The contract fails the gate: \d+ problems in 3 files \(Redocly lint: \d+, contract checks: \d+, reference model: \d+, compatibility with the latest release: \d+;/m);
  } finally {
    copy.remove();
  }
});

test('refuses a format it does not know, with exit code 2', () => {
  const run = lint('--format', 'codeframe');
  assert.equal(run.status, 2);
  assert.match(run.stderr, /Unknown format "codeframe"; use one of: stylish, github-actions/);
});
