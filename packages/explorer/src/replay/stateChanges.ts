import { type ChainService, blockCallFrames, flattenFrames, scratchVm } from '@ashlar/core';
import { Address, bytesToBigInt, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { type VM, runTx } from '@ethereumjs/vm';
import type { MinedTx } from '../Explorer.js';
import type { TransferView } from '../serializers/tokenTransfer.js';

/** A balance a transaction changed: native coin (`token` null) or one token (and id) of a holder. */
export interface BalanceChange {
  address: Uint8Array;
  token: Uint8Array | null;
  tokenId: bigint | null;
  before: bigint | null;
  after: bigint | null;
}

/** Gas one `balanceOf` read may use (a token's own code runs). */
const READ_GAS = 1_000_000n;
const ERC20_BALANCE_OF = '70a08231';
const ERC1155_BALANCE_OF = '00fdd58e';

const word = (n: bigint | Uint8Array): string =>
  (typeof n === 'bigint' ? n.toString(16) : bytesToHex(n).slice(2)).padStart(64, '0');
const isZero = (a: Uint8Array): boolean => a.every((b) => b === 0);

/** What the transaction may have moved: addresses it, its frames and its transfers name; tokens held. */
async function candidates(chain: ChainService, t: MinedTx, transfers: TransferView[]) {
  const coins = new Map<string, Uint8Array>();
  const add = (a: Uint8Array | undefined | null) => {
    if (a) coins.set(bytesToHex(a), a);
  };
  add(t.sender);
  add(t.tx.to?.bytes);
  add(t.sb.block.header.coinbase.bytes);
  add(t.receipt.contractAddress);
  const frames = await blockCallFrames(chain, t.sb, t.index);
  const top = frames[t.index];
  if (top) {
    for (const { frame } of flattenFrames(top)) {
      add(hexToBytes(frame.from as `0x${string}`));
      if (frame.to !== '') add(hexToBytes(frame.to as `0x${string}`));
    }
  }
  const tokens = new Map<string, { holder: Uint8Array; token: Uint8Array; tokenId: bigint | null }>();
  for (const v of transfers) {
    // ERC-721's balanceOf counts tokens; ERC-1155's is per id.
    const id = v.kind.startsWith('erc1155') ? v.tokenId : null;
    for (const holder of [v.from, v.to]) {
      if (isZero(holder)) continue;
      tokens.set(`${bytesToHex(holder)}:${bytesToHex(v.token)}:${id ?? ''}`, { holder, token: v.token, tokenId: id });
    }
  }
  return { coins: [...coins.values()], tokens: [...tokens.values()] };
}

/** A token balance read on the replay's state (null when the token's balanceOf fails); nothing is kept. */
async function tokenBalance(vm: VM, t: MinedTx, token: Uint8Array, holder: Uint8Array, id: bigint | null) {
  const data =
    id === null ? `0x${ERC20_BALANCE_OF}${word(holder)}` : `0x${ERC1155_BALANCE_OF}${word(holder)}${word(id)}`;
  await vm.stateManager.checkpoint();
  try {
    const r = await vm.evm.runCall({
      to: new Address(token),
      caller: new Address(new Uint8Array(20)),
      data: hexToBytes(data as `0x${string}`),
      gasLimit: READ_GAS,
      skipBalance: true,
      block: t.sb.block,
    });
    const out = r.execResult.returnValue;
    return r.execResult.exceptionError || out.length < 32 ? null : bytesToBigInt(out.subarray(0, 32));
  } finally {
    await vm.stateManager.revert();
  }
}

async function read(vm: VM, t: MinedTx, c: Awaited<ReturnType<typeof candidates>>) {
  const coins: bigint[] = [];
  for (const a of c.coins) coins.push((await vm.stateManager.getAccount(new Address(a)))?.balance ?? 0n);
  const tokens: (bigint | null)[] = [];
  for (const x of c.tokens) tokens.push(await tokenBalance(vm, t, x.token, x.holder, x.tokenId));
  return { coins, tokens };
}

/**
 * The balances a mined transaction changed, as Blockscout's state-changes tab shows them: its
 * block is replayed on the parent's state in a scratch VM (the chain is not touched) up to the
 * transaction, balances are read before and after it. Native balances of every address the
 * transaction, its call frames and the block's miner name; token balances (`balanceOf`) of every
 * holder its transfers name. Unchanged balances are left out.
 */
export async function stateChanges(
  chain: ChainService,
  t: MinedTx,
  transfers: TransferView[],
): Promise<BalanceChange[]> {
  const sb = t.sb;
  if (sb.number === 0n) return [];
  const parent = await chain.getBlock(sb.number - 1n);
  if (!parent) return [];
  const c = await candidates(chain, t, transfers);
  const start = (await chain.store.getPreStateRoot(sb)) ?? parent.block.header.stateRoot;
  const header = sb.block.header;
  const vm = await scratchVm(chain, start, { number: header.number, timestamp: header.timestamp }, { caches: true });
  let gasUsed = 0n;
  const txs = sb.block.transactions;
  for (let i = 0; i < t.index; i++) {
    const r = await runTx(vm, { tx: txs[i], block: sb.block, blockGasUsed: gasUsed, skipHardForkValidation: true });
    gasUsed += r.blockGasSpent;
  }
  const before = await read(vm, t, c);
  await runTx(vm, { tx: txs[t.index], block: sb.block, blockGasUsed: gasUsed, skipHardForkValidation: true });
  const after = await read(vm, t, c);
  const out: BalanceChange[] = [];
  c.coins.forEach((address, i) => {
    if (before.coins[i] !== after.coins[i])
      out.push({ address, token: null, tokenId: null, before: before.coins[i], after: after.coins[i] });
  });
  c.tokens.forEach((x, i) => {
    if (before.tokens[i] !== after.tokens[i])
      out.push({
        address: x.holder,
        token: x.token,
        tokenId: x.tokenId,
        before: before.tokens[i],
        after: after.tokens[i],
      });
  });
  return out;
}
