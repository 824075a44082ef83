import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isReservedExampleHost, siteVariableRule } from './site-variable.ts';
import { problemsOf, reportedAfter, smallContract } from './small-contract.ts';

describe('site-variable', () => {
  test('accepts the {site} host with a reserved example name as its default', () => {
    assert.deepEqual(problemsOf(siteVariableRule, smallContract()), []);
  });

  test('knows the reserved example names of RFC 2606 and RFC 6761, and nothing else', () => {
    for (const host of ['shop.example', 'www.my-shop.example', 'shop.test', 'a.invalid', 'localhost:8080', 'example.com', 'shop.example.org', 'shop.example.']) {
      assert.ok(isReservedExampleHost(host), host);
    }
    for (const host of ['shop.com', 'example.co.uk', 'myexample.com', 'shop.examples', 'test.shop.de']) {
      assert.ok(!isReservedExampleHost(host), host);
    }
  });

  test('rejects a default that could be a real shop', () => {
    const reported = reportedAfter(siteVariableRule, (document) => {
      document.servers[0].variables.site.default = 'shop.com';
    });
    assert.match(reported, /^#\/servers\/0\/variables\/site: The default of \{site\}, "shop\.com", is not a reserved example name \(RFC 2606/);
  });

  test('rejects a fixed host instead of the {site} variable, and a server without the variable', () => {
    const reported = reportedAfter(siteVariableRule, (document) => {
      document.servers[0].url = 'https://api.publisher.example/wp-json/service/v1';
      delete document.servers[0].variables;
    });
    assert.match(reported, /names the host "api\.publisher\.example"; .* must be the \{site\} variable/);
    assert.match(reported, /declares no "site" variable/);
  });
});
