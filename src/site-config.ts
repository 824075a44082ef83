/**
 * The one place that says what the site is called and where the publisher's two public hosts
 * live. Every page, the server card and the discovery files are built from, or tested against,
 * these values.
 * The defaults use reserved example names (RFC 2606) until the real hosts are chosen.
 */
export const siteConfig = {
  /** The name of the service, the site's title and the H1 of `llms.txt`. */
  title: 'Subscription Lifecycle Action Service',
  /** Origin of this documentation site: `{docs_url}` in the interface specification. */
  docsUrl: 'https://docs.subscription-lifecycle.example',
  /** Endpoint of the read-only product-information server: `{mcp_url}`. */
  mcpUrl: 'https://mcp.subscription-lifecycle.example/mcp',
} as const;
