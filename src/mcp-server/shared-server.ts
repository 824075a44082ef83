import {
  PerRequestHTTPServerTransport,
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
type Classification = ConstructorParameters<typeof PerRequestHTTPServerTransport>[0]['classification'];

/** One request in flight on a shared server: the id its client gave it, and what the server sent for it so far. */
interface Exchange {
  clientId: RequestId;
  related: JSONRPCMessage[];
  settle: (messages: JSONRPCMessage[]) => void;
}

/**
 * The requests in flight on one shared server. Each gets an id of our own, so two clients that
 * both number their first call 1 cannot meet in the server; the answer goes back under the
 * client's id.
 */
class InFlightRequests {
  private lastId = 0;
  private readonly exchanges = new Map<number, Exchange>();

  /** Hands `request` to the server under our id; resolves with what the server sends for it, the answer last, or nothing when the transport closes first. */
  start(request: JSONRPCRequest, extra: MessageExtraInfo, onmessage: Transport['onmessage']): Promise<JSONRPCMessage[]> {
    if (onmessage === undefined) return Promise.resolve([]);
    this.lastId += 1;
    const id = this.lastId;
    return new Promise((settle) => {
      this.exchanges.set(id, { clientId: request.id, related: [], settle });
      onmessage({ ...request, id }, extra);
    });
  }

  /** What the server sends: an answer settles its request, anything else sent for a request is kept for it. */
  deliver(message: JSONRPCMessage, options: TransportSendOptions | undefined): void {
    const isAnswer = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const id = isAnswer ? message.id : options?.relatedRequestId;
    const exchange = typeof id === 'number' ? this.exchanges.get(id) : undefined;
    if (exchange === undefined || typeof id !== 'number') return;
    if (!isAnswer) {
      exchange.related.push(message);
      return;
    }
    this.exchanges.delete(id);
    // Spread keeps the members in the SDK's order, with the client's id in place of ours.
    exchange.settle([...exchange.related, { ...message, id: exchange.clientId }]);
  }

  closeAll(): void {
    for (const exchange of this.exchanges.values()) exchange.settle([]);
    this.exchanges.clear();
  }
}

/**
 * A transport that hands requests to a server connected to it once and resolves with what the
 * server sends for each. The protocol itself (validation, dispatch, the answer's encoding) stays
 * the SDK's.
 */
export class SharedServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly requests = new InFlightRequests();

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.requests.deliver(message, options);
  }

  async close(): Promise<void> {
    this.requests.closeAll();
    this.onclose?.();
  }

  exchange(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage[]> {
    return this.requests.start(request, extra, this.onmessage);
  }
}

/**
 * The same for the 2026-07-28 era. It is a `PerRequestHTTPServerTransport` only so that
 * connecting a server binds that server to the classified modern revision, as the SDK does for
 * the per-request transport (`Server.connect`); it serves many requests, none of them through the
 * per-request machinery it inherits.
 */
export class SharedModernServerTransport extends PerRequestHTTPServerTransport {
  private readonly requests = new InFlightRequests();

  constructor(classification: Classification) {
    super({ classification });
  }

  override async start(): Promise<void> {}

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.requests.deliver(message, options);
  }

  override async close(): Promise<void> {
    this.requests.closeAll();
    this.onclose?.();
  }

  exchange(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage[]> {
    return this.requests.start(request, extra, this.onmessage);
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
 * A `tools/call` served by a long-lived server rather than a fresh server instance and transport
 * per request: one server for the 2025 era, one for each 2026-era revision. Only a request the
 * SDK's own handler would answer as plainly comes here: a single JSON-RPC request by the SDK's
 * schema, naming a tool of `toolNames`, routed by the SDK's classifier, and
 *
 * - in the 2025 era, accepting both JSON and event streams and naming a supported protocol
 *   version or none, as the stateless transport requires; it is answered as that transport
 *   answers, with one server-sent event;
 * - in the 2026 era, naming a supported revision, with the `MCP-Protocol-Version`, `Mcp-Method`
 *   and `Mcp-Name` headers the SDK requires, `Mcp-Name` spelled as the tool; it is answered as
 *   JSON when the server answers with a result and nothing before it, and otherwise left to the
 *   SDK, which answers it again (the tools only read), so that its errors keep their statuses.
 *
 * Anything else, `initialize` and every method that changes a server's state included, is left
 * to the SDK's handler (the caller's), so the answers cannot differ. The 2026 era's per-request
 * client identity is not written to the shared server: it serves requests the server sends to
 * the client, which no tool makes.
 *
 * Why: in workerd, JavaScript objects that a request's platform objects reach (a listener on its
 * `AbortSignal`, a `ReadableStream`'s source) survive every young-generation collection until a
 * full one, and the SDK's per-request path hangs its server instance and transport there, so each
 * scavenge copied them to the old generation. Here a call leaves nothing behind but the answer's
 * text.
 */
export function createSharedToolCalls(newServer: () => McpServer, toolNames: ReadonlySet<string>, supportedProtocolVersions: readonly string[]) {
  const legacyServer = newServer();
  const legacyTransport = new SharedServerTransport();
  const legacyConnected = legacyServer.connect(legacyTransport);
  const servers = [legacyServer];
  const modern = new Map<string, { transport: SharedModernServerTransport; connected: Promise<void> }>();

  function modernFor(revision: string, classification: Classification) {
    let shared = modern.get(revision);
    if (shared === undefined) {
      const server = newServer();
      const transport = new SharedModernServerTransport(classification);
      shared = { transport, connected: server.connect(transport) };
      servers.push(server);
      modern.set(revision, shared);
    }
    return shared;
  }

  return {
    /** The answer, or undefined when the request is not one this serves. */
    async answer(request: Request, body: unknown): Promise<Response | undefined> {
      if (!isJSONRPCRequest(body) || body.method !== 'tools/call') return undefined;
      const name = (body.params as { name?: unknown } | undefined)?.name;
      if (typeof name !== 'string' || !toolNames.has(name)) return undefined;
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
      if (route.kind === 'legacy') {
        const accept = request.headers.get('accept');
        if (accept === null || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
        await legacyConnected;
        const messages = await legacyTransport.exchange(body, { request });
        if (messages.length === 0) return undefined;
        const text = messages.map((message) => `event: message\ndata: ${JSON.stringify(message)}\n\n`).join('');
        return new Response(text, { status: 200, headers: eventStreamHeaders });
      }
      if (route.kind !== 'modern' || route.messageKind !== 'request') return undefined;
      const revision = route.classification.revision;
      if (revision === undefined || !supportedProtocolVersions.includes(revision)) return undefined;
      if (protocolVersionHeader === null || mcpMethodHeader === null || mcpNameHeader !== name) return undefined;
      const shared = modernFor(revision, route.classification);
      await shared.connected;
      const messages = await shared.transport.exchange(body, { request, classification: route.classification });
      const answer = messages[0];
      if (messages.length !== 1 || answer === undefined || !isJSONRPCResultResponse(answer)) return undefined;
      return Response.json(answer, { status: 200, headers: { 'Content-Type': 'application/json' } });
    },
    close: async () => {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}
