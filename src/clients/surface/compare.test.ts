import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { phpSurface } from '../php/surface-reader.ts';
import { comparePhpSurfaces, type PhpSurface } from '../php/surface.ts';
import { compareTypescriptSurfaces, type TypescriptSurface } from '../typescript/surface.ts';

/** A one-file package holding `body` inside `final class Client`. */
function client(body: string, extra = ''): PhpSurface {
  return phpSurface(new Map([['src/Client.php', `<?php\nnamespace Example\\Client;\nfinal class Client\n{\n${body}\n}\n${extra}`]]));
}

const release = client(`
    public const VERSION = '1.0.0';
    private const DEFAULTS = ['timeout' => 30, 'pace' => 1];
    public function __construct(string $siteUrl, string $apiKey, array $options = []) {}
    public function pauseSubscription(int $subscriptionId, ?string $note = null): Result {}
    public function send(string $action, array $fields): Result {}
`);

function messages(before: PhpSurface, after: PhpSurface): string[] {
  return comparePhpSurfaces(before, after).map((entry) => entry.message);
}

describe('the PHP surface held against a release', () => {
  test('reads constants, options, parameters with their types and defaults', () => {
    const [phpClass] = release.classes;
    assert.equal(phpClass?.name, 'Example\\Client\\Client');
    assert.deepEqual(Object.keys(phpClass?.constants ?? {}), ['VERSION']);
    assert.deepEqual(phpClass?.options, ['timeout', 'pace']);
    const pause = phpClass?.methods.find((method) => method.name === 'pauseSubscription');
    assert.deepEqual(pause?.parameters, [{ name: 'subscriptionId', type: 'int' }, { name: 'note', type: '?string', default: 'null' }]);
    assert.equal(pause?.returns, 'Example\\Client\\Result');
  });

  test('the same surface, a new method, a new class and a new optional parameter at the end break nothing', () => {
    assert.deepEqual(messages(release, release), []);
    const grown = client(
      `
    public const VERSION = '1.1.0';
    private const DEFAULTS = ['timeout' => 30, 'pace' => 1, 'logger' => null];
    public function __construct(string $siteUrl, string $apiKey, array $options = []) {}
    public function pauseSubscription(int $subscriptionId, ?string $note = null, ?string $resumeOn = null): Result {}
    public function send(string $action, array $fields): Result {}
    public function trialEnd(int $subscriptionId): Result {}
`,
      'final class Extra {}',
    );
    assert.deepEqual(messages(release, grown), []);
  });

  test('a parameter moved, a new required one, a method or constant or option gone, a method twice: each breaks', () => {
    const broken = client(`
    private const DEFAULTS = ['timeout' => 30];
    public function __construct(string $siteUrl, string $apiKey, array $options = []) {}
    public function pauseSubscription(int $subscriptionId, ?string $reason = null, ?string $note = null, int $more): Result {}
    public function trialEnd(int $subscriptionId): Result {}
    public function trialEnd(int $subscriptionId): Result {}
`);
    const found = messages(release, broken).join('\n');
    assert.match(found, /pauseSubscription\(\) takes \$reason where \$note was/);
    assert.match(found, /new required parameter \$more/);
    assert.match(found, /Client::send\(\) is gone/);
    assert.match(found, /Client::VERSION is gone/);
    assert.match(found, /no longer accepts the option 'pace'/);
    assert.match(found, /declares trialEnd\(\) twice/);
  });

  test('a retyped parameter, a default changed and an optional parameter made required break', () => {
    const broken = client(`
    public const VERSION = '1.0.0';
    private const DEFAULTS = ['timeout' => 30, 'pace' => 1];
    public function __construct(string $siteUrl, string $apiKey, array $options = ['pace' => 0]) {}
    public function pauseSubscription(string $subscriptionId, ?string $note): Result {}
    public function send(string $action, array $fields): Result {}
`);
    const found = messages(release, broken).join('\n');
    assert.match(found, /types \$subscriptionId as string, not int/);
    assert.match(found, /now requires \$note/);
    assert.match(found, /changes the default of \$options/);
  });
});

const fields = (optional: Record<string, string>, required: Record<string, string> = { subscription_id: 'number' }) => ({
  kind: 'interface' as const,
  members: {
    ...Object.fromEntries(Object.entries(required).map(([name, type]) => [name, { kind: 'property' as const, type, optional: false }])),
    ...Object.fromEntries(Object.entries(optional).map(([name, type]) => [name, { kind: 'property' as const, type, optional: true }])),
  },
});

function typescript(pauseFields: ReturnType<typeof fields>, result: ReturnType<typeof fields>, statuses: string[], extra: TypescriptSurface['exports'] = {}): TypescriptSurface {
  return {
    exports: {
      Client: {
        kind: 'class',
        members: {
          new: { kind: 'method', type: 'Client', optional: false, parameters: [{ name: 'baseUrl', type: 'string', optional: false }] },
          pauseSubscription: { kind: 'method', type: 'Promise<Result>', optional: false, parameters: [{ name: 'fields', type: 'PauseFields', optional: false }] },
        },
      },
      PauseFields: pauseFields,
      Result: result,
      Status: { kind: 'type', type: statuses.join(' | '), literals: statuses },
      contractVersion: { kind: 'value', type: '"1.0.0"' },
      ...extra,
    },
  };
}

describe('the TypeScript surface held against a release', () => {
  const before = typescript(fields({ note: 'string' }), fields({}, { status: 'string' }), ['"active"', '"on-hold"']);

  test('a new optional input member, a new result member, a new export, a new value of a union and a new version break nothing', () => {
    const after = typescript(fields({ reason: 'string', note: 'string' }), fields({}, { status: 'string', changed: 'boolean' }), ['"active"', '"on-hold"', '"paused"'], { Extra: { kind: 'value', type: 'number' } });
    (after.exports.contractVersion as { type: string }).type = '"1.1.0"';
    assert.deepEqual(compareTypescriptSurfaces(before, after), []);
  });

  test('a new required input member, a removed export, a retyped member and a union that loses a value break', () => {
    const after = typescript(fields({ note: 'number' }, { subscription_id: 'number', reason: 'string' }), fields({}, { status: 'string' }), ['"active"', '"paused"']);
    delete after.exports.contractVersion;
    const found = compareTypescriptSurfaces(before, after).map((entry) => entry.message).join('\n');
    assert.match(found, /PauseFields gains the required member reason/);
    assert.match(found, /PauseFields\.note is typed number, not string/);
    assert.match(found, /the export contractVersion is gone/);
    assert.match(found, /Status no longer has "on-hold"/);
  });
});
