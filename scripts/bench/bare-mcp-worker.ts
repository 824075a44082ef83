/**
 * The simplest MCP server on Workers, for `scripts/bench-mcp-worker.ts`: the bare v2 SDK
 * (`createMcpHandler`, stateless, as ours) answering one tool with a fixed text, no Host checks, no
 * knowledge. Bundled by the bench, which sets `answerText` to as many characters as our tools
 * answer on average; what it costs is the SDK's own floor for a tool call in workerd.
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

declare const answerText: string;

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bare', version: '1.0.0' });
    server.registerTool('answer', { description: 'A fixed answer.', inputSchema: z.object({}) }, () => ({ content: [{ type: 'text', text: answerText }] }));
    return server;
  },
  { legacy: 'stateless' },
);

export default {
  fetch(request: Request): Promise<Response> {
    return handler.fetch(request);
  },
};
