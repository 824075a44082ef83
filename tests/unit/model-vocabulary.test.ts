/**
 * The model's vocabulary lives in one file, src/lib/contract/model.ts, apart from the readers that
 * fill it: every reader and consumer imports its types from there, none declares or re-exports one
 * of them (a second declaration would be a second vocabulary to keep in step).
 */
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { projectDirectory } from '../support/contract-copy.ts';

const modelFile = 'src/lib/contract/model.ts';
const vocabulary = [...readFileSync(path.join(projectDirectory, modelFile), 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1] ?? '');

test('model.ts holds the vocabulary the readers fill: ReferenceModel and the types it is made of', () => {
  for (const name of ['ReferenceModel', 'Action', 'BodyEnvelope', 'Field', 'Lifecycle', 'Endpoint', 'ResponseRow']) assert.ok(vocabulary.includes(name), name);
});

test('no other file under src/ declares or re-exports a type of the vocabulary, and none imports one from elsewhere', () => {
  const problems: string[] = [];
  for (const file of globSync(['src/**/*.ts', 'src/**/*.astro'], { cwd: projectDirectory })) {
    // The TypeScript client's runtime is copied into the published package as it is, where the model is not.
    if (file === modelFile || file.startsWith('src/clients/typescript/runtime/')) continue;
    const text = readFileSync(path.join(projectDirectory, file), 'utf8');
    for (const name of vocabulary) {
      if (new RegExp(`^export (?:interface|type) ${name}\\b`, 'm').test(text)) problems.push(`${file} declares ${name}`);
    }
    for (const match of text.matchAll(/(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
      const [, names = '', specifier = ''] = match;
      if (specifier.endsWith('/model.ts') || (specifier === './model.ts')) continue;
      const named = names.split(',').map((item) => item.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0] ?? '');
      for (const name of named.filter((candidate) => vocabulary.includes(candidate))) {
        // A name from a package (openapi-types, Astro) may coincide with one of ours; only the project's own modules count.
        if (specifier.startsWith('.')) problems.push(`${file} takes ${name} from ${specifier}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});
