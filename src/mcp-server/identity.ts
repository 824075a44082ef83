import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serverCardPath } from '../lib/site/discovery.ts';

/** The fields of the published server card the server takes its identity from. */
export interface ServerCard {
  name: string;
  version: string;
  title: string;
  description: string;
  websiteUrl: string;
  remotes: { type: string; url: string; supportedProtocolVersions?: string[] }[];
}

export interface ServerIdentity {
  card: ServerCard;
  /** The card exactly as the docs site publishes it, and its entity tag. */
  cardText: string;
  etag: string;
  supportedProtocolVersions: string[];
}

/**
 * The server is what its card says: name, version, title, description and protocol versions are
 * read from the card the docs site publishes (`public/.well-known/mcp/server-card.json`), so the
 * two cannot drift apart.
 */
export function readServerIdentity(projectDirectory: string): ServerIdentity {
  const cardText = readFileSync(path.join(projectDirectory, 'public', serverCardPath), 'utf8');
  const card = JSON.parse(cardText) as ServerCard;
  const supportedProtocolVersions = card.remotes[0]?.supportedProtocolVersions ?? [];
  if (supportedProtocolVersions.length === 0) throw new Error(`public${serverCardPath}: the remote lists no supportedProtocolVersions`);
  const etag = `"${createHash('sha256').update(cardText).digest('base64url').slice(0, 27)}"`;
  return { card, cardText, etag, supportedProtocolVersions };
}
