import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { comparePythonSurfaces, pythonAlternatives } from './surface.ts';
import { pythonSurface, PythonUnavailableError } from './surface-reader.ts';
import type { PythonSurface } from './surface.ts';

const work = mkdtempSync(path.join(tmpdir(), 'python-surface-'));
const skip = spawnSync('python3', ['--version']).status === 0 ? false : 'python3 is not installed here';
let packages = 0;

/** A package `example` with `_contract.py` holding `fields`, `client.py` holding `methods` inside `class Client`, and `__init__.py` exporting both. */
function surfaceOf(fields: string, methods: string): PythonSurface {
  const folder = path.join(work, String(packages++), 'example');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, '_contract.py'), `from typing import List, Literal, Optional, TypedDict\n\n\nclass _PauseFieldsRequired(TypedDict):\n    subscription_id: int\n\n\nclass PauseFields(_PauseFieldsRequired, total=False):\n${fields}\n\n\nclass Result(TypedDict):\n    status: str\n\n\nclass ClientError(Exception):\n    pass\n\n\nclass ConflictError(ClientError):\n    def __init__(self, status: int) -> None:\n        self.status = status\n        super().__init__("conflict")\n`);
  writeFileSync(path.join(folder, 'client.py'), `from typing import Any, Literal, Mapping, Optional\n\nfrom ._contract import PauseFields, Result\n\n\nclass Client:\n    def __init__(self, base_url: str, api_key: str, *, timeout: Optional[float] = None) -> None:\n        self._secret = api_key\n\n${methods}\n`);
  writeFileSync(path.join(folder, '__init__.py'), `from ._contract import ClientError, ConflictError, PauseFields, Result\nfrom .client import Client\n\n__version__ = "1.0.0"\n\n__all__ = ["__version__", "Client", "ClientError", "ConflictError", "PauseFields", "Result"]\n`);
  return pythonSurface(folder);
}

const releaseFields = '    note: str';
const releaseMethods = `    def pause(self, fields: PauseFields, *, timeout: Optional[float] = None) -> Result:
        raise NotImplementedError

    def send(self, action: str, fields: Mapping[str, Any], *, timeout: Optional[float] = None) -> Result:
        raise NotImplementedError`;

function messages(fields: string, methods: string): string[] {
  return comparePythonSurfaces(surfaceOf(releaseFields, releaseMethods), surfaceOf(fields, methods)).map((entry) => entry.message);
}

after(() => rmSync(work, { recursive: true, force: true }));

describe('the Python surface, read with Python\'s ast and held against a release', { skip }, () => {
  test('reads the exported names, a TypedDict\'s keys through its private base, parameters by kind, attributes and ancestors', () => {
    const surface = surfaceOf(releaseFields, releaseMethods);
    assert.deepEqual(Object.keys(surface.names), ['Client', 'ClientError', 'ConflictError', 'PauseFields', 'Result', '__version__']);
    assert.deepEqual(surface.names.PauseFields, { kind: 'typeddict', keys: { subscription_id: { type: 'int', required: true }, note: { type: 'str', required: false } } });
    const client = surface.names.Client;
    assert.ok(client?.kind === 'class');
    assert.deepEqual(client.methods.pause?.parameters, [
      { name: 'fields', kind: 'positional', type: 'PauseFields' },
      { name: 'timeout', kind: 'keyword-only', type: 'Optional[float]', default: 'None' },
    ]);
    assert.deepEqual(Object.keys(client.attributes), [], 'a private attribute is no part of the surface');
    const conflict = surface.names.ConflictError;
    assert.ok(conflict?.kind === 'class');
    assert.deepEqual(conflict.ancestors, ['ClientError', 'Exception']);
    assert.deepEqual(conflict.attributes, { status: 'int' });
    assert.deepEqual(surface.names.__version__, { kind: 'value', type: 'str' });
  });

  test('the same surface, an optional key before the note, a new method and a new keyword with a default break nothing', () => {
    assert.deepEqual(messages(releaseFields, releaseMethods), []);
    const grownMethods = releaseMethods.replace('timeout: Optional[float] = None) -> Result:\n        raise NotImplementedError\n\n    def send', 'timeout: Optional[float] = None, retries: int = 0) -> Result:\n        raise NotImplementedError\n\n    def resume(self, fields: PauseFields) -> Result:\n        raise NotImplementedError\n\n    def send');
    assert.deepEqual(messages('    reference: str\n    note: str', grownMethods), []);
    assert.deepEqual(messages('    note: Optional[str]', releaseMethods), [], 'a key that takes more than it did breaks no caller');
  });

  test('a key removed, a method gone, a parameter moved, a new required one, a parameter narrowed: each breaks', () => {
    assert.match(messages('    pass', releaseMethods).join('\n'), /PauseFields no longer has the key note/);
    assert.match(messages(releaseFields, releaseMethods.replace('def pause(', 'def pause_now(')).join('\n'), /Client\.pause\(\) is gone/);
    const moved = messages(releaseFields, releaseMethods.replace('def send(self, action: str, fields: Mapping[str, Any], *,', 'def send(self, fields: Mapping[str, Any], action: str, *, extra: int,')).join('\n');
    assert.match(moved, /Client\.send\(\) takes fields where action was \(parameter 1; action is now parameter 2\)/);
    assert.match(moved, /new required parameter extra/);
    const narrowed = messages(releaseFields, releaseMethods.replace('def send(self, action: str', "def send(self, action: Literal['pause']")).join('\n');
    assert.match(narrowed, /Client\.send\(\) types action as Literal\['pause'\], not str/);
    assert.deepEqual(messages(releaseFields, releaseMethods.replace('fields: PauseFields, *, timeout', 'fields: PauseFields, timeout')), [], 'a keyword that may now be passed by position too breaks no caller');
    assert.match(messages(releaseFields, releaseMethods.replace('def pause(self, fields: PauseFields, *, timeout', 'def pause(self, *, fields: PauseFields, timeout')).join('\n'), /Client\.pause\(\) takes fields by name only now/);
  });

  test('a key of the fields made required is named with its TypedDict, for the gate to find in the contract', () => {
    const release = surfaceOf(releaseFields, releaseMethods);
    const current = structuredClone(release);
    const fields = current.names.PauseFields;
    assert.ok(fields?.kind === 'typeddict' && fields.keys.note !== undefined);
    fields.keys.note.required = true;
    const [found, ...rest] = comparePythonSurfaces(release, current);
    assert.deepEqual(rest, []);
    assert.equal(found?.language, 'Python');
    assert.match(found?.message ?? '', /PauseFields now requires the key note, which was optional/);
    assert.deepEqual(found?.names, ['note', 'PauseFields']);
  });

  test('an exception that no longer derives from the base, and an attribute gone, break an except clause and a reader', () => {
    const release = surfaceOf(releaseFields, releaseMethods);
    const current = structuredClone(release);
    const conflict = current.names.ConflictError;
    assert.ok(conflict?.kind === 'class');
    conflict.ancestors = ['Exception'];
    conflict.attributes = {};
    const found = comparePythonSurfaces(release, current).map((entry) => entry.message).join('\n');
    assert.match(found, /ConflictError no longer derives from ClientError/);
    assert.match(found, /ConflictError\.status is gone/);
  });

  test('an annotation\'s alternatives: Optional, Union, Literal and the | spelling', () => {
    assert.deepEqual([...pythonAlternatives('Optional[Union[int, List[str]]]')].sort(), ['List[str]', 'None', 'int']);
    assert.deepEqual([...pythonAlternatives("Literal['a', 'b, c']")].sort(), ["Literal['a']", "Literal['b, c']"]);
    assert.deepEqual([...pythonAlternatives('int | None')].sort(), ['None', 'int']);
  });

  test('without python3 the reader says so and how to install it, rather than reading nothing', () => {
    assert.throws(() => pythonSurface(work, 'python3-that-is-not-installed'), (error: unknown) => error instanceof PythonUnavailableError && /python3-that-is-not-installed is not installed here.*apt-get install -y python3/.test(error.message));
  });
});
