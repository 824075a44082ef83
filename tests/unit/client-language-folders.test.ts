/**
 * A language of the client libraries is one folder (docs/client-libraries.md, "A language"): its
 * generator, packing and page code read what the languages share from src/clients/shared/ and
 * src/lib/, never from another language's folder, and so do its page's components.
 */
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { clientPackages } from '../../src/clients/packages.ts';
import { pascalCaseName } from '../../src/lib/samples/client-libraries.ts';
import { projectDirectory } from '../support/contract-copy.ts';

const importPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
const languages = clientPackages.map((clientPackage) => clientPackage.language);

/** The files of a language: its folder, and its page's components (`PythonClientCode.astro`, …). */
function filesOf(language: string): string[] {
  return globSync([`src/clients/${language}/**/*.ts`, `src/components/clients/${pascalCaseName(language)}Client*.astro`], { cwd: projectDirectory });
}

test('every language has its folder and reads no other language\'s', () => {
  const crossings: string[] = [];
  for (const language of languages) {
    const files = filesOf(language);
    assert.ok(files.some((file) => file.startsWith(`src/clients/${language}/`)), `src/clients/${language}/ holds the ${language} library`);
    const others = languages.filter((other) => other !== language).map((other) => `src/clients/${other}/`);
    for (const file of files) {
      const text = readFileSync(path.join(projectDirectory, file), 'utf8');
      for (const match of text.matchAll(importPattern)) {
        const target = path.normalize(path.join(path.dirname(file), match[1] ?? ''));
        if (others.some((folder) => target.startsWith(folder))) crossings.push(`${file}:${text.slice(0, match.index).split('\n').length}: imports ${target}`);
      }
    }
  }
  assert.deepEqual(crossings, []);
});
