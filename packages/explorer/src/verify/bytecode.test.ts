import solc from 'solc';
import { describe, expect, it } from 'vitest';
import { compareRuntime, compiledBytes, readMetadata, splitCreationInput } from './bytecode.js';

// A contract with an immutable and an external library call: both must be blanked before comparing.
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
library Lib { function twice(uint256 x) external pure returns (uint256) { return 2 * x; } }
contract Uses {
  address public immutable owner;
  constructor() { owner = msg.sender; }
  function f(uint256 x) external pure returns (uint256) { return Lib.twice(x); }
}`;

const out = JSON.parse(
  solc.compile(
    JSON.stringify({
      language: 'Solidity',
      sources: { 'Uses.sol': { content: SOURCE } },
      settings: {
        outputSelection: {
          '*': {
            '*': [
              'evm.bytecode.object',
              'evm.bytecode.linkReferences',
              'evm.deployedBytecode.object',
              'evm.deployedBytecode.linkReferences',
              'evm.deployedBytecode.immutableReferences',
            ],
          },
        },
      },
    }),
  ),
);
const uses = out.contracts['Uses.sol'].Uses.evm;
const runtime: string = uses.deployedBytecode.object;
const immutables = uses.deployedBytecode.immutableReferences;
const links = uses.deployedBytecode.linkReferences;
const LIB = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const OWNER = 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** What the chain would hold: the library's address linked in, the owner in the immutable's slots. */
function deployed(): Uint8Array {
  const code = compiledBytes(runtime);
  for (const r of links['Uses.sol'].Lib) code.set(Buffer.from(LIB, 'hex'), r.start);
  for (const ranges of Object.values(immutables) as { start: number; length: number }[][])
    for (const r of ranges) code.set(Buffer.from(OWNER.padStart(64, '0'), 'hex'), r.start);
  return code;
}

describe('readMetadata', () => {
  it("reads solc's CBOR trailer: the IPFS multihash and the compiler version", () => {
    const meta = readMetadata(compiledBytes(runtime));
    if (!meta) throw new Error('no metadata');
    const ipfs = meta.fields.ipfs as Uint8Array;
    // sha2-256 multihash: 0x12 0x20 then 32 bytes (Solidity docs, metadata encoding)
    expect([...ipfs.subarray(0, 2)]).toEqual([0x12, 0x20]);
    expect(ipfs.length).toBe(34);
    const [major, minor, patch] = (solc.version() as string).split(/[.+]/).map(Number);
    expect([...(meta.fields.solc as Uint8Array)]).toEqual([major, minor, patch]);
    expect(meta.start).toBe(compiledBytes(runtime).length - 2 - 0x33);
  });

  it('answers undefined for code without a trailer', () => {
    expect(readMetadata(Uint8Array.from([0x60, 0x00, 0x00, 0xff]))).toBeUndefined();
    expect(readMetadata(new Uint8Array(0))).toBeUndefined();
  });
});

describe('compareRuntime', () => {
  it('is a full match with immutables and library addresses blanked, and names the library', () => {
    expect(runtime).toMatch(/__\$[0-9a-f]{34}\$__/);
    expect(compareRuntime(deployed(), runtime, immutables, links)).toEqual({
      ok: true,
      match: 'full',
      libraries: [{ name: 'Uses.sol:Lib', address_hash: `0x${LIB}` }],
    });
  });

  it('is a partial match when only the metadata differs', () => {
    const code = deployed();
    code[code.length - 10] ^= 0xff; // inside the IPFS hash
    expect(compareRuntime(code, runtime, immutables, links)).toMatchObject({ ok: true, match: 'partial' });
  });

  it('names the first differing byte, or the lengths', () => {
    const code = deployed();
    code[3] ^= 0x01;
    expect(compareRuntime(code, runtime, immutables, links)).toEqual({
      ok: false,
      reason: `runtime bytecode differs at byte 3 (of ${code.length}): deployed 0x${code[3].toString(16).padStart(2, '0')}, compiled 0x${(code[3] ^ 1).toString(16).padStart(2, '0')}`,
    });
    expect(compareRuntime(code.subarray(1), runtime, immutables, links)).toEqual({
      ok: false,
      reason: `runtime bytecode length differs: deployed ${code.length - 1} bytes, compiled ${code.length} bytes`,
    });
  });
});

describe('splitCreationInput', () => {
  it('returns the bytes after the creation code, with libraries linked anywhere', () => {
    const creation: string = uses.bytecode.object;
    const init = compiledBytes(creation);
    for (const r of uses.bytecode.linkReferences['Uses.sol'].Lib) init.set(Buffer.from(LIB, 'hex'), r.start);
    const input = Uint8Array.from([...init, 0xab, 0xcd]);
    expect([...(splitCreationInput(input, creation, uses.bytecode.linkReferences, false) ?? [])]).toEqual([0xab, 0xcd]);
    input[0] ^= 1;
    expect(splitCreationInput(input, creation, uses.bytecode.linkReferences, false)).toBeUndefined();
    expect(splitCreationInput(init.subarray(2), creation, {}, true)).toBeUndefined();
  });
});
