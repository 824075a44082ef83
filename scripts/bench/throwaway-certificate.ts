import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StaticHostTls } from '../../src/host/static-host.ts';

/**
 * A throwaway certificate for 127.0.0.1, so the pages are served over HTTPS with HTTP/2 as the
 * production hosts serve them; the browser is told to accept it.
 */
export function throwawayCertificate(): StaticHostTls {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'bench-tls-'));
  const key = path.join(directory, 'key.pem');
  const cert = path.join(directory, 'cert.pem');
  const result = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`openssl could not make a certificate for the bench: ${result.error?.message ?? result.stderr}`);
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}
