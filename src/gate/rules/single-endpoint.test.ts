import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { singleEndpointRule } from './single-endpoint.ts';
import { problemsOf, reportedAfter, smallContract } from './small-contract.ts';

describe('single-endpoint', () => {
  test('accepts one path under an https server that ends in the versioned endpoint', () => {
    assert.deepEqual(problemsOf(singleEndpointRule, smallContract()), []);
  });

  test('rejects a server that is not an absolute URL', () => {
    const reported = reportedAfter(singleEndpointRule, (document) => {
      document.servers[0].url = '/wp-json/service/v1';
    });
    assert.match(reported, /^#\/servers\/0: Server URL "\/wp-json\/service\/v1" is not an absolute URL/);
  });

  test('rejects a server over plain http', () => {
    const reported = reportedAfter(singleEndpointRule, (document) => {
      document.servers[0].url = document.servers[0].url.replace('https:', 'http:');
    });
    assert.match(reported, /uses http:\/\/; the endpoint is served over https only/);
  });

  test('rejects a document without a server', () => {
    assert.match(reportedAfter(singleEndpointRule, (document) => delete document.servers), /^#: The document declares no server/);
  });

  test('rejects the path renamed, and a second path', () => {
    assert.match(
      reportedAfter(singleEndpointRule, (document) => {
        document.paths = { '/actions': document.paths['/action'] };
      }),
      /resolves to \/wp-json\/service\/v1\/actions, not \/wp-json\/service\/v1\/action/,
    );
    assert.match(
      reportedAfter(singleEndpointRule, (document) => {
        document.paths['/status'] = document.paths['/action'];
      }),
      /^#\/paths: The document declares 2 paths \("\/action", "\/status"\)/,
    );
  });

  test('rejects the version outside the path', () => {
    const reported = reportedAfter(singleEndpointRule, (document) => {
      document.servers[0].url = 'https://{site}/wp-json/service';
    });
    assert.match(reported, /resolves to \/wp-json\/service\/action, not \/wp-json\/service\/v1\/action \(the version v1 is part of the path\)/);
  });
});
