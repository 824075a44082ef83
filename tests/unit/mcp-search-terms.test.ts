/**
 * How search reads a query's words: neighbouring words join as an identifier would only where the
 * query separates them by whitespace or an underscore, so a hyphenated word (a status such as
 * "pending-cancel") is never split into a neighbour's identifier.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { wordsJoined } from '../../src/mcp-server/search-index.ts';

describe('words joined as identifiers', () => {
  test('words the query separates by whitespace join, pair by pair', () => {
    assert.deepEqual(wordsJoined('What is the subscription id?'), ['what_is', 'is_the', 'the_subscription', 'subscription_id']);
  });

  test('a hyphenated word joins with neither neighbour', () => {
    const joined = wordsJoined('Can I resume a pending-cancel subscription?');
    assert.ok(!joined.includes('cancel_subscription'), joined.join(', '));
    assert.ok(!joined.includes('a_pending'), joined.join(', '));
    assert.deepEqual(joined, ['can_i', 'i_resume', 'resume_a']);
  });

  test('an identifier as typed keeps its parts, and joins on with the next word', () => {
    assert.deepEqual(wordsJoined('pause_subscription note'), ['pause_subscription', 'subscription_note']);
  });

  test('punctuation at the end of a word does not keep it from joining', () => {
    assert.deepEqual(wordsJoined('api key, please'), ['api_key', 'key_please']);
  });
});
