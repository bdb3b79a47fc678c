import { randomBytes } from 'node:crypto';
import { SigningKey } from 'ethers';
import { describe, expect, it } from 'vitest';
import {
  type Secp256k1Backend,
  loadNativeKeccak256,
  loadNativeSecp256k1,
  loadWasmKeccak256,
  pureJsKeccak256,
  pureJsSecp256k1,
  selectCrypto,
} from './cryptoBackends.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const to32 = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
const native = { keccak256: loadNativeKeccak256(), secp256k1: loadNativeSecp256k1() };

/** Both implementations' results, or the fact that both threw. */
function both<T>(f: (s: Secp256k1Backend) => T): [T | 'threw', T | 'threw'] {
  const run = (s: Secp256k1Backend) => {
    try {
      return f(s);
    } catch {
      return 'threw' as const;
    }
  };
  return [run(native.secp256k1), run(pureJsSecp256k1)];
}

describe('keccak256: native addon and @noble/hashes', () => {
  it('match the published vectors', () => {
    for (const k of [native.keccak256, pureJsKeccak256]) {
      expect(hex(k(new Uint8Array(0)))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
      expect(hex(k(Buffer.from('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    }
  });

  it('give the same digest for every length 0..600 and for views into larger buffers', () => {
    const big = randomBytes(1200);
    for (let len = 0; len <= 600; len++) {
      const msg = new Uint8Array(big.buffer, big.byteOffset + (len % 7), len);
      expect(hex(native.keccak256(msg))).toBe(hex(pureJsKeccak256(msg)));
    }
  });

  it('native results stay valid after the next hash (no shared output buffer)', () => {
    const a = native.keccak256(Buffer.from('a'));
    const aHex = hex(a);
    native.keccak256(Buffer.from('b'));
    expect(hex(a)).toBe(aHex);
  });
});

describe('keccak256: hash-wasm and @noble/hashes', () => {
  it('match the published vectors, every length 0..600, views and a 1 MiB input', async () => {
    const wasm = await loadWasmKeccak256();
    expect(hex(wasm(new Uint8Array(0)))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(hex(wasm(Buffer.from('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    const big = randomBytes(1200);
    for (let len = 0; len <= 600; len++) {
      const msg = new Uint8Array(big.buffer, big.byteOffset + (len % 7), len);
      expect(hex(wasm(msg))).toBe(hex(pureJsKeccak256(msg)));
    }
    const huge = randomBytes(1 << 20);
    expect(hex(wasm(huge))).toBe(hex(pureJsKeccak256(huge)));
    // Around the module's 16 KiB I/O buffer: one call below it, chunked updates from it on.
    for (const len of [16383, 16384, 16385, 32767, 32768, 32769]) {
      const msg = huge.subarray(3, 3 + len);
      expect(hex(wasm(msg))).toBe(hex(pureJsKeccak256(msg)));
    }
  });

  it('results stay valid after the next hash (no shared output buffer)', async () => {
    const wasm = await loadWasmKeccak256();
    const a = wasm(Buffer.from('a'));
    const aHex = hex(a);
    wasm(Buffer.from('b'));
    expect(hex(a)).toBe(aHex);
  });
});

describe('secp256k1: libsecp256k1 addon and @noble/curves', () => {
  const cases = Array.from({ length: 40 }, () => ({ key: randomBytes(32), hash: randomBytes(32) }));

  it('derive the same public keys, compressed and not', () => {
    for (const { key } of cases) {
      for (const compressed of [true, false]) {
        const [a, b] = both((s) => hex(s.publicKeyCreate(key, compressed)));
        expect(b).toBe(a);
      }
    }
  });

  it('make the same RFC 6979 signatures as each other and as ethers', () => {
    for (const { key, hash } of cases) {
      const [a, b] = both((s) => s.ecdsaSign(hash, key));
      expect(b).toEqual(a);
      const e = new SigningKey(key).sign(hash);
      const sig = (b as { signature: Uint8Array; recid: number }).signature;
      expect(`0x${hex(sig)}`).toBe(`${e.r}${e.s.slice(2)}`);
      expect((b as { recid: number }).recid).toBe(e.yParity);
    }
  });

  it('recover the same key, also from high-s signatures (the ECRECOVER precompile accepts them)', () => {
    for (const { key, hash } of cases) {
      const { signature, recid } = native.secp256k1.ecdsaSign(hash, key);
      const pub = hex(native.secp256k1.publicKeyCreate(key, false));
      expect(both((s) => hex(s.ecdsaRecover(signature, recid, hash)))).toEqual([pub, pub]);
      const highS = Uint8Array.from(signature);
      highS.set(to32(N - BigInt(`0x${hex(signature.subarray(32))}`)), 32);
      expect(both((s) => hex(s.ecdsaRecover(highS, recid ^ 1, hash)))).toEqual([pub, pub]);
      // the other recovery id gives another key, the same in both
      const [x, y] = both((s) => hex(s.ecdsaRecover(signature, recid ^ 1, hash)));
      expect(y).toBe(x);
      expect(x).not.toBe(pub);
    }
  });

  it('both refuse the same invalid signatures', () => {
    const hash = randomBytes(32);
    const { signature } = native.secp256k1.ecdsaSign(hash, randomBytes(32));
    const zeroR = Uint8Array.from(signature).fill(0, 0, 32);
    const rTooBig = Uint8Array.from(signature);
    rTooBig.set(to32(N), 0);
    expect(both((s) => s.ecdsaRecover(zeroR, 0, hash))).toEqual(['threw', 'threw']);
    expect(both((s) => s.ecdsaRecover(rTooBig, 0, hash))).toEqual(['threw', 'threw']);
  });

  it('tweak private keys alike (BIP-32), refusing a tweak >= n', () => {
    for (const { key, hash } of cases) {
      const [a, b] = both((s) => hex(s.privateKeyTweakAdd(key, hash)));
      expect(b).toBe(a);
    }
    const [a, b] = both((s) => hex(s.privateKeyTweakAdd(to32(N - 5n), to32(7n))));
    expect([a, b]).toEqual([hex(to32(2n)), hex(to32(2n))]);
    expect(both((s) => s.privateKeyTweakAdd(to32(1n), to32(N)))).toEqual(['threw', 'threw']);
    expect(both((s) => s.privateKeyTweakAdd(to32(5n), to32(N - 5n)))).toEqual(['threw', 'threw']);
  });

  it('native tweak leaves its argument unchanged', () => {
    const key = to32(9n);
    native.secp256k1.privateKeyTweakAdd(key, to32(1n));
    expect(hex(key)).toBe(hex(to32(9n)));
  });
});

describe('selectCrypto', () => {
  it('uses the native addons where they load', () => {
    const s = selectCrypto({});
    expect(s.impl).toEqual({ keccak: 'native', secp256k1: 'native' });
    expect(s.reasons).toEqual([]);
  });

  it('ASHLAR_PURE_JS_CRYPTO=1 forces @noble for both, without loading the addons', () => {
    const s = selectCrypto(
      { ASHLAR_PURE_JS_CRYPTO: '1' },
      {
        keccak256: () => {
          throw new Error('must not load');
        },
        secp256k1: () => {
          throw new Error('must not load');
        },
      },
    );
    expect(s.impl).toEqual({ keccak: 'pure-js', secp256k1: 'pure-js' });
    expect(s.keccak256).toBe(pureJsKeccak256);
    expect(s.secp256k1).toBe(pureJsSecp256k1);
    expect(s.reasons).toEqual(['ASHLAR_PURE_JS_CRYPTO is set']);
  });

  it('falls back per primitive when a prebuilt binary is missing, and says why', () => {
    const s = selectCrypto(
      {},
      {
        keccak256: () => {
          throw new Error('No native build was found for platform=plan9 arch=mips runtime=node abi=115\nmore');
        },
        secp256k1: loadNativeSecp256k1,
      },
    );
    expect(s.impl).toEqual({ keccak: 'pure-js', secp256k1: 'native' });
    expect(s.reasons).toEqual([
      'native keccak unavailable: No native build was found for platform=plan9 arch=mips runtime=node abi=115',
    ]);
  });

  it('treats an addon that loads but answers wrong as missing', () => {
    const s = selectCrypto(
      {},
      {
        keccak256: () => () => new Uint8Array(32),
        secp256k1: () => ({ ...pureJsSecp256k1, publicKeyCreate: () => new Uint8Array(33) }),
      },
    );
    expect(s.impl).toEqual({ keccak: 'pure-js', secp256k1: 'pure-js' });
    expect(s.reasons).toEqual([
      'native keccak unavailable: wrong keccak256 of the empty input',
      'native secp256k1 unavailable: wrong public key of private key 1',
    ]);
  });
});
