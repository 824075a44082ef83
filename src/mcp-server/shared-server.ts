import {
  classifyInboundRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type McpServer,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';

type RequestId = JSONRPCRequest['id'];

/** One request in flight on the shared server: the id its client gave it, and what the server sent for it so far. */
interface Exchange {
  clientId: RequestId;
  related: JSONRPCMessage[];
  settle: (messages: JSONRPCMessage[]) => void;
}

/**
 * A transport that hands one request at a time to a server connected to it once, and resolves
 * with what the server sends for that request: its notifications, then its answer. Requests in
 * flight at once each get an id of the transport's own, so two clients that both number their
 * first call 1 cannot meet in the server; the answer goes back under the client's id. The
 * protocol itself (validation, dispatch, the answer's encoding) stays the SDK's.
 */
export class SharedServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private lastId = 0;
  private readonly inFlight = new Map<number, Exchange>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    for (const exchange of this.inFlight.values()) exchange.settle([]);
    this.inFlight.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const isAnswer = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const id = isAnswer ? message.id : options?.relatedRequestId;
    const exchange = typeof id === 'number' ? this.inFlight.get(id) : undefined;
    if (exchange === undefined || id === undefined) return;
    if (!isAnswer) {
      exchange.related.push(message);
      return;
    }
    this.inFlight.delete(id as number);
    // Spread keeps the members in the SDK's order, with the client's id in place of ours.
    exchange.settle([...exchange.related, { ...message, id: exchange.clientId }]);
  }

  /** What the server sends for `request`, the answer last; empty when the transport closed first. */
  exchange(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage[]> {
    const onmessage = this.onmessage;
    if (onmessage === undefined) return Promise.resolve([]);
    this.lastId += 1;
    const id = this.lastId;
    return new Promise((settle) => {
      this.inFlight.set(id, { clientId: request.id, related: [], settle });
      onmessage({ ...request, id }, extra);
    });
  }
}

/** The headers the SDK's stateless 2025-era transport answers a request with, as one server-sent event stream. */
const eventStreamHeaders = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * A 2025-era `tools/call` served by one long-lived server rather than a fresh server instance and
 * transport per request. Only a request the SDK's stateless fallback would answer with one event
 * stream comes here (classified legacy by the SDK, a single JSON-RPC request by the SDK's schema,
 * accepting both JSON and event streams, naming a supported protocol version or none, calling a
 * tool of `toolNames`); anything else, `initialize` and every method that changes a server's
 * state included, is left to the SDK's own handler, so the answers cannot differ.
 *
 * Why: in workerd, JavaScript objects that a request's platform objects reach (its `AbortSignal`'s
 * listeners, a `ReadableStream`'s source) survive every young-generation collection until a full
 * one, and the SDK's per-request path hangs its server instance and transport there, so each
 * scavenge copied them to the old generation. This answers with the text of the stream built
 * whole, so nothing of the call outlives it.
 */
export function createSharedToolCalls(server: McpServer, toolNames: ReadonlySet<string>, supportedProtocolVersions: readonly string[]) {
  const transport = new SharedServerTransport();
  const connected = server.connect(transport);
  return {
    /** The answer, or undefined when the request is not one this serves. */
    async answer(request: Request, body: unknown): Promise<Response | undefined> {
      const accept = request.headers.get('accept');
      if (accept === null || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
      const protocolVersionHeader = request.headers.get('mcp-protocol-version');
      if (protocolVersionHeader !== null && !supportedProtocolVersions.includes(protocolVersionHeader)) return undefined;
      const mcpMethodHeader = request.headers.get('mcp-method');
      const mcpNameHeader = request.headers.get('mcp-name');
      const route = classifyInboundRequest({
        httpMethod: request.method.toUpperCase(),
        ...(protocolVersionHeader === null ? {} : { protocolVersionHeader }),
        ...(mcpMethodHeader === null ? {} : { mcpMethodHeader }),
        ...(mcpNameHeader === null ? {} : { mcpNameHeader }),
        body,
      });
      if (route.kind !== 'legacy' || !isJSONRPCRequest(body) || body.method !== 'tools/call') return undefined;
      const name = (body.params as { name?: unknown } | undefined)?.name;
      if (typeof name !== 'string' || !toolNames.has(name)) return undefined;
      await connected;
      const messages = await transport.exchange(body, { request });
      if (messages.length === 0) return undefined;
      const text = messages.map((message) => `event: message\ndata: ${JSON.stringify(message)}\n\n`).join('');
      return new Response(text, { status: 200, headers: eventStreamHeaders });
    },
    close: () => server.close(),
  };
}
