/**
 * Each tool of the product-information server is whole in its own file under
 * src/mcp-server/tools/ (name, title, description, annotations, schemas, answer), and
 * `catalogue.ts` lists every one of them once: a tool cannot be written and left unlisted, or
 * described in two places that drift apart.
 */
import assert from 'node:assert/strict';
import { globSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { toolCatalogue, tools } from '../../src/mcp-server/catalogue.ts';
import type { ToolDefinition } from '../../src/mcp-server/tools/tool.ts';
import { projectDirectory } from '../support/contract-copy.ts';

const toolsDirectory = path.join(projectDirectory, 'src/mcp-server/tools');

function isTool(value: unknown): value is ToolDefinition {
  return typeof value === 'object' && value !== null && typeof (value as ToolDefinition).name === 'string' && typeof (value as ToolDefinition).answer === 'function';
}

describe('the MCP tools', () => {
  test('each file of tools/ defines one tool, and the catalogue lists it once, by the same object', async () => {
    const files = globSync('*.ts', { cwd: toolsDirectory }).filter((file) => file !== 'tool.ts');
    assert.equal(files.length, tools.length, `files: ${files.join(', ')}`);
    for (const file of files) {
      const module: Record<string, unknown> = await import(path.join(toolsDirectory, file));
      const defined = Object.values(module).filter(isTool);
      assert.equal(defined.length, 1, `${file} defines ${defined.length} tools`);
      assert.equal(tools.filter((tool) => tool === defined[0]).length, 1, `${file}: its tool is not listed once in catalogue.ts`);
      assert.equal(file, `${defined[0]?.name.replaceAll('_', '-')}.ts`, 'a tool lives in the file named after it');
    }
  });

  test('names are unique, and each says what it answers and how it may be called', () => {
    assert.equal(new Set(tools.map((tool) => tool.name)).size, tools.length);
    for (const tool of tools) {
      assert.match(tool.name, /^[a-z]+(_[a-z]+)*$/);
      assert.ok(tool.title.length > 0 && tool.description.length > 40, tool.name);
      assert.equal(tool.annotations.destructiveHint, false, `${tool.name}: the server changes nothing`);
      assert.deepEqual(toolCatalogue[tool.name], { title: tool.title, description: tool.description });
    }
  });
});
