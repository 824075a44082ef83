/**
 * The simplest server doing the same I/O as ours, for the benchmark: the bare v2 SDK
 * (`createMcpHandler`, stateless) on `node:http`, one tool answering a fixed text of the size
 * `--answer-bytes` gives. No Host checks, no model, no card.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, 'answer-bytes': { type: 'string', default: '2000' } } });
const text = 'x'.repeat(Number(values['answer-bytes']));
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  server.registerTool('answer', { description: 'A fixed answer.', inputSchema: z.object({}) }, () => ({ content: [{ type: 'text', text }] }));
  return server;
});
const serve = toNodeHandler(handler);
const http = createServer((request, response) => void serve(request, response));
http.listen(Number(values.port), '127.0.0.1', () => {
  const address = http.address();
  console.log(typeof address === 'object' && address !== null ? address.port : '');
});
