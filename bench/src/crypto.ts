// Keccak-256 on hash-wasm and the `keccak` addon, and secp256k1 on its addon, vs the pure-JS
// fallback (@noble/*), in ops/s:
//   node --conditions=@ashlar/source --import tsx bench/src/crypto.ts
// The node picks native where the prebuilt addons load (ASHLAR_PURE_JS_CRYPTO=1 forces pure JS);
// see packages/core/src/chain/cryptoBackends.ts.
import { randomBytes } from 'node:crypto';
import { type CryptoSelection, loadWasmKeccak256, selectCrypto } from '@ashlar/core';

const native = selectCrypto({});
const pure = selectCrypto({ ASHLAR_PURE_JS_CRYPTO: '1' });
if (native.impl.keccak !== 'native' || native.impl.secp256k1 !== 'native') {
  console.log(`native addons unavailable here: ${native.reasons.join('; ')}`);
}

/** ops/s of `f` over ~`ms` after a warm-up. */
function rate(f: (i: number) => unknown, ms = 400): number {
  for (let i = 0; i < 200; i++) f(i);
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 64; i++) f(n++);
    now = performance.now();
  }
  return n / ((now - start) / 1000);
}

const keys = Array.from({ length: 64 }, () => randomBytes(32));
const hashes = Array.from({ length: 64 }, () => randomBytes(32));
const sigs = keys.map((k, i) => native.secp256k1.ecdsaSign(hashes[i], k));

const cases: [string, (c: CryptoSelection) => (i: number) => unknown][] = [];
for (const size of [32, 136, 532]) {
  const msg = randomBytes(size);
  cases.push([`keccak256 ${size} B`, (c) => () => c.keccak256(msg)]);
}
cases.push([
  'secp256k1 recover',
  (c) => (i) => c.secp256k1.ecdsaRecover(sigs[i & 63].signature, sigs[i & 63].recid, hashes[i & 63]),
]);
cases.push(['secp256k1 sign', (c) => (i) => c.secp256k1.ecdsaSign(hashes[i & 63], keys[i & 63])]);
cases.push(['secp256k1 public key', (c) => (i) => c.secp256k1.publicKeyCreate(keys[i & 63], false)]);

const wasmKeccak = await loadWasmKeccak256();
console.log('| Keccak-256 | hash-wasm ops/s | native addon ops/s | pure JS ops/s |');
console.log('| --- | ---: | ---: | ---: |');
for (const size of [32, 136, 532]) {
  const msg = randomBytes(size);
  const [w, n, p] = [wasmKeccak, native.keccak256, pure.keccak256].map((k) => rate(() => k(msg)));
  console.log(`| ${size} B | ${[w, n, p].map((r) => Math.round(r).toLocaleString('en')).join(' | ')} |`);
}
console.log();
console.log('| operation | native ops/s | pure JS ops/s | native ÷ pure |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, make] of cases) {
  const a = rate(make(native));
  const b = rate(make(pure));
  console.log(
    `| ${name} | ${Math.round(a).toLocaleString('en')} | ${Math.round(b).toLocaleString('en')} | ${(a / b).toFixed(1)} |`,
  );
}
