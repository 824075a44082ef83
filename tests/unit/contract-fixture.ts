import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleContract } from '../../src/lib/bundle.ts';
import { asOpenApiDocument, type OpenApiDocument } from '../../src/lib/document.ts';

export const projectDirectory = path.resolve(import.meta.dirname, '../..');

/**
 * Bundles `openapi/` with the real Redocly CLI into a temporary directory, so the tests read the
 * same document the build does without depending on a previous build.
 */
export function bundleForTest(): OpenApiDocument {
  const outputDirectory = mkdtempSync(path.join(tmpdir(), 'contract-'));
  const contract = bundleContract(projectDirectory, undefined, outputDirectory);
  return asOpenApiDocument(contract.document, contract.jsonPath);
}
