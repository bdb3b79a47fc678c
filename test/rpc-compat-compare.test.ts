/** The runner's comparison follows hive's rules (helpers/rpcCompat.ts), checked on small cases. */
import { describe, expect, it } from 'vitest';
import { checkResponse, jsonDiff, parseVector } from './helpers/rpcCompat.js';

const vector = (lines: string, path = 'eth_x/t.io') => parseVector(path, lines);
const ex = (res: unknown) => ({ request: '{"jsonrpc":"2.0","id":1,"method":"eth_x"}', response: JSON.stringify(res) });

describe('jsonDiff', () => {
  it('ignores key order, compares numbers by value, fails on extra or missing keys', () => {
    expect(jsonDiff({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1.0 })).toEqual([]);
    expect(jsonDiff({ a: 1, c: 2 }, { a: 1 })).toEqual(['.c: unexpected (2)']);
    expect(jsonDiff({}, { a: 1 })).toEqual(['.a: missing (want 1)']);
    expect(jsonDiff([2, 1], [1, 2])).toHaveLength(2);
  });
});

describe('checkResponse', () => {
  const v = vector('>> {}\n<< {}\n');
  it('drops error.message only when both sides have an error', () => {
    const want = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'geth words' } };
    const same = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'other words' } };
    expect(checkResponse(v, ex(want), JSON.stringify(same))).toEqual([]);
    const otherCode = { ...same, error: { code: -32000, message: 'geth words' } };
    expect(checkResponse(v, ex(want), JSON.stringify(otherCode))).toEqual(['.error.code: got -32000, want -32602']);
    const result = { jsonrpc: '2.0', id: 1, result: '0x1' };
    expect(checkResponse(v, ex(want), JSON.stringify(result))).toHaveLength(2);
  });

  it('validates a speconly success against the schema only', () => {
    const spec = vector('// speconly: schema\n>> {}\n<< {}\n');
    expect(spec.specOnly).toBe(true);
    const e = {
      request: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}',
      response: '{"jsonrpc":"2.0","id":1,"result":"0x36"}',
    };
    expect(checkResponse(spec, e, '{"jsonrpc":"2.0","id":1,"result":"0x1"}')).toEqual([]);
    expect(checkResponse(spec, e, '{"jsonrpc":"2.0","id":1,"result":"1"}')[0]).toMatch(/^schema:/);
  });

  it('drops only the documented spec fields, only where the vector lacks them', () => {
    const req = '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber"}';
    const e = { request: req, response: '{"jsonrpc":"2.0","id":1,"result":{"number":"0x1"}}' };
    const got = '{"jsonrpc":"2.0","id":1,"result":{"number":"0x1","totalDifficulty":"0x5"}}';
    expect(checkResponse(v, e, got)).toEqual([]);
    const extra = '{"jsonrpc":"2.0","id":1,"result":{"number":"0x1","size":"0x5"}}';
    expect(checkResponse(v, e, extra)).toEqual(['.result.size: unexpected ("0x5")']);
  });
});
