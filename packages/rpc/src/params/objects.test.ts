import { type CallRequest, isAshlarError, type ParamParser, type StateOverrides, toRpcError } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import { logFilter, stateOverrides, transactionRequest } from './index.js';

/** Parses and returns the wire error ({code, message}) the call would produce. */
function wireError(p: ParamParser<unknown>, value: unknown, index = 0): { code: number; message: string } {
  try {
    p.parse(value, index);
  } catch (e) {
    expect(isAshlarError(e)).toBe(true);
    const { code, message } = toRpcError(e);
    return { code, message };
  }
  throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
}

const A = '0x7dcd17433742f4c0ca53122ab541d0ba67fc27df';
const B = '0x8c2319620d7c348bb4e2b2a0b230c81f310e9561';
const T0 = '0x00000000000000000000000000000000000000000000000000000000656d6974';
const T1 = '0x95b7276947f6331672b0c63eca28c1d39f25286d5e2793d6a487837ff1475ba0';
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

describe('transactionRequest', () => {
  const p = transactionRequest('transaction');

  it('parses every field', () => {
    const r = p.parse(
      {
        from: A.toUpperCase().replace('0X', '0x'),
        to: B,
        gas: '0x5208',
        maxFeePerGas: '0x3b9aca00',
        maxPriorityFeePerGas: '0x1',
        value: '0xde0b6b3a7640000',
        input: '0x1234',
        nonce: '0x7',
        type: '0x4',
        chainId: '0xc72dd9d5e883e',
        accessList: [{ address: A, storageKeys: [T0, T1] }, { address: B }],
        authorizationList: [
          {
            chainId: '0x1',
            address: B,
            nonce: '0x0',
            yParity: '0x1',
            r: '0xabc',
            s: '0xdef',
          },
        ],
        blobVersionedHashes: [T1],
        maxFeePerBlobGas: '0x20000',
        someUnknownKey: 'ignored',
      },
      0,
    );
    expect(r.from?.toString()).toBe(A);
    expect(r.to?.toString()).toBe(B);
    expect(r.gas).toBe(21000n);
    expect(r.maxFeePerGas).toBe(1_000_000_000n);
    expect(r.maxPriorityFeePerGas).toBe(1n);
    expect(r.value).toBe(10n ** 18n);
    expect(hex(r.data ?? new Uint8Array())).toBe('0x1234');
    expect(r.nonce).toBe(7n);
    expect(r.type).toBe(4);
    expect(r.chainId).toBe(3503995874084926n);
    expect(r.accessList?.map((e) => [e.address.toString(), e.storageKeys.map(hex)])).toEqual([
      [A, [T0, T1]],
      [B, []],
    ]);
    expect(r.authorizationList?.[0]).toMatchObject({
      chainId: 1n,
      nonce: 0n,
      yParity: 1n,
      r: 0xabcn,
      s: 0xdefn,
    });
    expect(r.authorizationList?.[0].address.toString()).toBe(B);
    expect(r.blobVersionedHashes?.map(hex)).toEqual([T1]);
    expect(r.maxFeePerBlobGas).toBe(0x20000n);
    expect('someUnknownKey' in r).toBe(false);
    // usable as core's CallRequest
    const asCall: CallRequest = r;
    expect(asCall).toBe(r);
  });

  it('treats null like absent (to: null = create)', () => {
    const r = p.parse({ from: A, to: null, gas: null, data: '0x6000' }, 0);
    expect(r.to).toBeUndefined();
    expect('to' in r).toBe(false);
    expect('gas' in r).toBe(false);
    expect(hex(r.data ?? new Uint8Array())).toBe('0x6000');
    expect(p.parse({}, 0)).toEqual({});
  });

  it('accepts equal data and input, rejects different ones', () => {
    expect(hex(p.parse({ data: '0xaa', input: '0xaa' }, 0).data ?? new Uint8Array())).toBe('0xaa');
    expect(wireError(p, { data: '0xaa', input: '0xbb' })).toEqual({
      code: -32602,
      message:
        'invalid argument 0 (transaction): both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
    });
  });

  it('rejects gasPrice together with 1559 fees', () => {
    for (const extra of [{ maxFeePerGas: '0x1' }, { maxPriorityFeePerGas: '0x1' }]) {
      expect(wireError(p, { gasPrice: '0x1', ...extra })).toEqual({
        code: -32602,
        message: 'invalid argument 0 (transaction): both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified',
      });
    }
    expect(wireError(p, { maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }).message).toBe(
      'invalid argument 0 (transaction): maxFeePerGas (1) < maxPriorityFeePerGas (2)',
    );
  });

  it.each([
    [{ from: '0x1234' }, 'field "from": hex string has length 4, want 40 for common.Address'],
    [
      { gas: '0x01' },
      'field "gas": json: cannot unmarshal hex number with leading zero digits into Go value of type hexutil.Uint64',
    ],
    [
      { gas: `0x1${'0'.repeat(16)}` },
      'field "gas": json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint64',
    ],
    [{ value: 5 }, 'field "value": json: cannot unmarshal non-string into Go value of type *hexutil.Big'],
    [
      { input: '0x1' },
      'field "input": json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes',
    ],
    [{ accessList: {} }, 'field "accessList": json: cannot unmarshal object into Go value of type types.AccessList'],
    [
      { accessList: [{ address: A, storageKeys: ['0x01'] }] },
      'field "accessList[0].storageKeys[0]": hex string has length 2, want 64 for common.Hash',
    ],
    [
      { accessList: [{ storageKeys: [] }] },
      'field "accessList[0]": missing required field \'address\' for AccessTuple',
    ],
    [
      {
        authorizationList: [{ chainId: '0x1', address: B, nonce: '0x0', r: '0x1', s: '0x1' }],
      },
      'field "authorizationList[0]": missing required field \'yParity\' for SetCodeAuthorization',
    ],
    ['0x', 'json: cannot unmarshal string into Go value of type ethapi.TransactionArgs'],
    [null, 'json: cannot unmarshal null into Go value of type ethapi.TransactionArgs'],
  ])('rejects %j', (v, msg) => {
    expect(wireError(p, v)).toEqual({
      code: -32602,
      message: `invalid argument 0 (transaction): ${msg}`,
    });
  });
});

describe('logFilter', () => {
  const p = logFilter('filter');

  it('parses range, addresses and topics', () => {
    const f = p.parse(
      {
        fromBlock: '0x1',
        toBlock: 'latest',
        address: [A, B],
        topics: [T0, null, [T0, T1], []],
      },
      0,
    );
    expect(f.fromBlock).toEqual({ kind: 'number', number: 1n });
    expect(f.toBlock).toEqual({ kind: 'tag', tag: 'latest' });
    expect(f.blockHash).toBeUndefined();
    expect(f.addresses.map((a) => a.toString())).toEqual([A, B]);
    expect(f.topics.map((t) => (t === null ? null : t.map(hex)))).toEqual([[T0], null, [T0, T1], null]);
  });

  it('handles the vectors shapes', () => {
    // topic-null-wildcard / topic-wildcard / contract-addr / filter-with-blockHash
    expect(p.parse({ fromBlock: '0x3', toBlock: '0x6', topics: [null, [T1]] }, 0).topics[0]).toBeNull();
    expect(p.parse({ fromBlock: '0x3', toBlock: '0x6', topics: [[], [T1]] }, 0).topics[0]).toBeNull();
    expect(p.parse({ address: [A], fromBlock: '0x1', toBlock: '0x4' }, 0).addresses).toHaveLength(1);
    const h = p.parse({ blockHash: T1 }, 0);
    expect(hex(h.blockHash ?? new Uint8Array())).toBe(T1);
    expect(h.addresses).toEqual([]);
    expect(h.topics).toEqual([]);
    // single address, null address / topics, a null inside alternatives = wildcard
    expect(p.parse({ address: A }, 0).addresses.map(String)).toEqual([A]);
    expect(p.parse({ address: null, topics: null }, 0)).toEqual({
      addresses: [],
      topics: [],
    });
    expect(p.parse({ topics: [[T0, null]] }, 0).topics).toEqual([null]);
  });

  it('rejects blockHash with a range (-32602, vector filter-error-invalid-blockHash-and-range)', () => {
    expect(wireError(p, { blockHash: T1, fromBlock: '0x3', toBlock: '0x4' })).toEqual({
      code: -32602,
      message:
        'invalid argument 0 (filter): cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other',
    });
    expect(wireError(p, { blockHash: T1, toBlock: 'latest' }).code).toBe(-32602);
  });

  it.each([
    [{ topics: [T0, T0, T0, T0, T0] }, 'field "topics": exceed max topics'],
    [
      { topics: [`0x${'0'.repeat(62)}`] },
      'field "topics[0]": hex has invalid length 31 after decoding; expected 32 for topic',
    ],
    [{ topics: [5] }, 'field "topics[0]": invalid topic(s)'],
    [{ topics: [[5]] }, 'field "topics[0]": invalid topic(s)'],
    [{ topics: 'x' }, 'field "topics": json: cannot unmarshal string into Go value of type []interface {}'],
    [
      { address: '0x1234' },
      'field "address": invalid address: hex has invalid length 2 after decoding; expected 20 for address',
    ],
    [{ address: [A, 7] }, 'field "address": non-string address at index 1'],
    [{ address: [A, 'zz'] }, 'field "address": invalid address at index 1: hex string without 0x prefix'],
    [{ address: 7 }, 'field "address": invalid addresses in query'],
    [{ fromBlock: '0x01' }, 'field "fromBlock": hex number with leading zero digits'],
    [{ blockHash: '0x12' }, 'field "blockHash": hex string has length 2, want 64 for common.Hash'],
    [[], 'json: cannot unmarshal array into Go value of type filters.FilterCriteria'],
  ])('rejects %j', (v, msg) => {
    expect(wireError(p, v)).toEqual({
      code: -32602,
      message: `invalid argument 0 (filter): ${msg}`,
    });
  });

  it('limits addresses to 1000', () => {
    expect(wireError(p, { address: new Array(1001).fill(A) }).message).toBe(
      'invalid argument 0 (filter): field "address": exceed max addresses',
    );
  });
});

describe('stateOverrides', () => {
  const p = stateOverrides('stateOverrides');
  const K1 = `0x${'0'.repeat(63)}1`;
  const V1 = `0x${'0'.repeat(62)}ff`;

  it('parses into core StateOverrides', () => {
    const s = p.parse(
      {
        [A.toUpperCase().replace('0X', '0x')]: {
          balance: '0x10',
          nonce: '0x2',
          code: '0x6000',
          state: { [K1]: V1 },
        },
        [B]: {
          stateDiff: { [K1.toUpperCase().replace('0X', '0x')]: V1 },
          movePrecompileToAddress: A,
        },
        '0x0000000000000000000000000000000000000001': { state: {} },
      },
      2,
    );
    const core: StateOverrides = s;
    expect([...core.keys()]).toEqual([A, B, '0x0000000000000000000000000000000000000001']);
    const a = s.get(A);
    expect(a?.balance).toBe(16n);
    expect(a?.nonce).toBe(2n);
    expect(hex(a?.code ?? new Uint8Array())).toBe('0x6000');
    expect([...(a?.state ?? new Map()).entries()].map(([k, v]) => [k, hex(v)])).toEqual([[K1, V1]]);
    expect(a?.stateDiff).toBeUndefined();
    const b = s.get(B);
    expect([...(b?.stateDiff ?? new Map()).keys()]).toEqual([K1]);
    expect(b?.movePrecompileToAddress?.toString()).toBe(A);
    expect(s.get('0x0000000000000000000000000000000000000001')?.state?.size).toBe(0);
  });

  it('lets a later spelling of the same address win', () => {
    const s = p.parse(
      {
        [A]: { balance: '0x1' },
        [A.toUpperCase().replace('0X', '0x')]: { balance: '0x2' },
      },
      2,
    );
    expect(s.size).toBe(1);
    expect(s.get(A)?.balance).toBe(2n);
  });

  it.each([
    [{ [A]: { state: { [K1]: V1 }, stateDiff: {} } }, `field "${A}": account ${A} has both 'state' and 'stateDiff'`],
    [{ '0x12': {} }, 'field "0x12": hex string has length 2, want 40 for common.Address'],
    [
      { [A]: { balance: '0x01' } },
      `field "${A}.balance": json: cannot unmarshal hex number with leading zero digits into Go value of type *hexutil.Big`,
    ],
    [{ [A]: { state: { '0x1': V1 } } }, `field "${A}.state.0x1": hex string of odd length`],
    [
      { [A]: { stateDiff: { [K1]: '0x1234' } } },
      `field "${A}.stateDiff.${K1}": hex string has length 4, want 64 for common.Hash`,
    ],
    [{ [A]: 5 }, `field "${A}": json: cannot unmarshal number into Go value of type override.OverrideAccount`],
    [[], 'json: cannot unmarshal array into Go value of type override.StateOverride'],
  ])('rejects %j', (v, msg) => {
    expect(wireError(p, v, 2)).toEqual({
      code: -32602,
      message: `invalid argument 2 (stateOverrides): ${msg}`,
    });
  });
});
