import { AbiCoder, id } from 'ethers';
import { describe, expect, it } from 'vitest';
import { coerceArgs, decodeInput, decodeLog, encodeCall, methodCall, readFunctions, writeFunctions } from './abi.js';

const coder = AbiCoder.defaultAbiCoder();
const hexBytes = (h: string) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'));

const ABI = [
  {
    type: 'function',
    name: 'swap',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'p',
        type: 'tuple',
        components: [
          { name: 'token', type: 'address' },
          { name: 'amounts', type: 'uint256[]' },
        ],
      },
      { name: 'ok', type: 'bool' },
    ],
    outputs: [],
  },
  { type: 'function', name: 'get', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'uint8' }] },
  { type: 'function', name: 'old', constant: true, inputs: [], outputs: [] },
  { type: 'fallback', stateMutability: 'payable' },
  {
    type: 'event',
    name: 'Named',
    anonymous: false,
    inputs: [
      { name: 'label', type: 'string', indexed: true },
      { name: 'who', type: 'address', indexed: true },
      { name: 'data', type: 'bytes', indexed: false },
    ],
  },
];
const TOKEN = '0x00000000000000000000000000000000000000AA';

describe('calls', () => {
  it('decodes tuples and arrays as Blockscout renders them', () => {
    const data =
      id('swap((address,uint256[]),bool)').slice(0, 10) +
      coder.encode(['(address,uint256[])', 'bool'], [[TOKEN, [1n, 2n]], true]).slice(2);
    expect(decodeInput(ABI, hexBytes(data))).toEqual({
      method_call: 'swap((address,uint256[]) p, bool ok)',
      method_id: id('swap((address,uint256[]),bool)').slice(2, 10),
      parameters: [
        { name: 'p', type: '(address,uint256[])', value: [TOKEN, ['1', '2']] },
        { name: 'ok', type: 'bool', value: 'true' },
      ],
    });
    expect(decodeInput(ABI, hexBytes('0x12345678'))).toBeNull();
  });

  it('encodes JSON arguments (strings, numbers, nested arrays) as ethers does', () => {
    const fn = ABI[0];
    expect(encodeCall(fn, [[TOKEN, ['1', 2]], 'true'])).toBe(
      id('swap((address,uint256[]),bool)').slice(0, 10) +
        coder.encode(['(address,uint256[])', 'bool'], [[TOKEN, [1n, 2n]], true]).slice(2),
    );
    expect(() => coerceArgs(fn.inputs ?? [], [[TOKEN, ['x']], true])).toThrow('p.amounts[0]: "x" is not an integer');
    expect(() => coerceArgs(fn.inputs ?? [], [[TOKEN, []], 'yes'])).toThrow('ok: "yes" is not a bool');
  });

  it('sorts read (view, pure, constant) from write (the rest, fallback, receive) methods', () => {
    expect(readFunctions(ABI).map((f) => f.name)).toEqual(['get', 'old']);
    expect(writeFunctions(ABI).map((f) => f.name ?? f.type)).toEqual(['swap', 'fallback']);
  });
});

describe('logs', () => {
  it('takes indexed values from topics (dynamic ones stay hashes) and the rest from data', () => {
    const topics = [id('Named(string,address,bytes)'), id('hello'), coder.encode(['address'], [TOKEN])].map(hexBytes);
    const decoded = decodeLog(ABI, topics, hexBytes(coder.encode(['bytes'], ['0xbeef'])));
    expect(decoded).toEqual({
      method_call: 'Named(string indexed label, address indexed who, bytes data)',
      method_id: id('Named(string,address,bytes)').slice(2, 10),
      parameters: [
        { name: 'label', type: 'string', value: id('hello'), indexed: true },
        { name: 'who', type: 'address', value: TOKEN, indexed: true },
        { name: 'data', type: 'bytes', value: '0xbeef', indexed: false },
      ],
    });
    // a log with other topics than the event declares is not this event
    expect(decodeLog(ABI, topics.slice(0, 2), new Uint8Array(0))).toBeNull();
    expect(methodCall({ type: 'function', name: 'f', inputs: [] })).toBe('f()');
  });
});
