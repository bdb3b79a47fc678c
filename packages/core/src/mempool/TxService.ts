import type { Common } from '@ethereumjs/common';
import { type TypedTransaction, createTxFromRLP } from '@ethereumjs/tx';
import { RLP } from '@ethereumjs/rlp';
import { Address, bytesToBigInt } from '@ethereumjs/util';
import { flatHex } from '../util/flatHex.js';
import { keccak256 } from '../chain/nativeCrypto.js';
import type { ChainService } from '../chain/ChainService.js';
import { accountNow } from '../chain/ChainStateManager.js';
import type { StoredReceipt } from '../chain/types.js';
import { AshlarError, isAshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import type { EventBus } from '../events/EventBus.js';
import type { MinerService } from '../miner/MinerService.js';
import type { MempoolService } from './MempoolService.js';
import type { PendingTx } from './types.js';
import { decodeBlobNetworkWrapper, isBlobNetworkWrapper } from './blobWrapper.js';
import { fastTxFromRaw } from './fastTxFromRaw.js';
import { primeSenderKey } from './senderKeyFromRaw.js';
import { MAX_TX_SIZE, validateStateless, validateWithState } from './validateTx.js';

/** Decoded transactions kept for a resend: a test suite's worth; the oldest go first past either bound. */
export const DECODED_MEMO_SIZE = 1024;
export const DECODED_MEMO_BYTES = 4 * 1024 * 1024;

export interface SubmitResult {
  hash: Uint8Array;
  /** True when the transaction is in a block already (automine). */
  mined: boolean;
  /** Its receipt when mined: status 0 with `error`/`returnData` when it failed. */
  receipt?: StoredReceipt;
}

/**
 * Accepts transactions: decode, recover the sender once, validate (stateless, then against
 * the head state), pool, and under automine mine them before answering. A rejected
 * transaction leaves no trace: nothing is pooled, stored or announced.
 */
export class TxService {
  /** Encodings of decoded transactions, so submit need not serialise them again. */
  private readonly raws = new WeakMap<TypedTransaction, Uint8Array>();
  /** Transactions decoded before, by hardfork and hash of their bytes (see decodeRaw), oldest first. */
  private readonly decoded = new Map<string, TypedTransaction>();
  private decodedBytes = 0;
  private decodedFor: Common | undefined;

  constructor(
    private readonly chain: ChainService,
    private readonly mempool: MempoolService,
    private readonly miner: MinerService,
    private readonly events: EventBus,
  ) {}

  decodeRaw(raw: Uint8Array): TypedTransaction {
    // A blob transaction with its blobs (the form wallets send) has a larger limit of its own.
    if (isBlobNetworkWrapper(raw)) return decodeBlobNetworkWrapper(raw, this.chain.common).tx;
    if (raw.length > MAX_TX_SIZE) {
      throw new AshlarError(
        ErrorCodes.OVERSIZED,
        `oversized data: transaction size ${raw.length}, limit ${MAX_TX_SIZE}`,
      );
    }
    if (raw.length === 0) throw new AshlarError(ErrorCodes.TX_DECODE, 'invalid transaction: empty input');
    const type = raw[0];
    if (type <= 0x7f && type > 0x04) {
      throw new AshlarError(ErrorCodes.TX_TYPE_UNSUPPORTED, `transaction type not supported: type ${type}`);
    }
    // The same bytes sent again (a client that signs itself resending after evm_revert: RFC 6979
    // makes the same bytes) are the same transaction: decoded and its sender recovered (~70 µs)
    // once. Only what decoded is kept; a refused input is refused again below.
    const common = this.chain.common;
    if (this.decodedFor !== common) {
      this.decoded.clear();
      this.decodedBytes = 0;
      this.decodedFor = common;
    }
    const hash = keccak256(raw);
    // flatHex: one flat string (bytesToHex builds a rope that every Map lookup flattens again).
    const memoKey = `${common.hardfork()}:${flatHex(hash)}`;
    const known = this.decoded.get(memoKey);
    if (known !== undefined) return known;
    let tx: TypedTransaction;
    try {
      // Made unfrozen only to give it a sender memo (below), then frozen: @ethereumjs caches a
      // transaction's hash, data fee and recovered key only on frozen ones.
      tx = fastTxFromRaw(raw, this.chain.common) ?? createTxFromRLP(raw, { common: this.chain.common, freeze: false });
    } catch (e) {
      // A transaction signed for another chain fails to decode with a generic error: geth's first.
      this.checkChainId(raw);
      const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
      const cap = /gas limit (\d+) exceeds the maximum allowed by EIP-7825 \((\d+)\)/.exec(msg);
      if (cap)
        throw new AshlarError(ErrorCodes.GAS_LIMIT, `transaction gas limit too high (cap: ${cap[2]}, tx: ${cap[1]})`);
      if (/signature|v value|high s|s-value|r value/i.test(msg)) {
        throw new AshlarError(ErrorCodes.BAD_SIGNATURE, `invalid transaction v, r, s values: ${msg}`);
      }
      throw new AshlarError(ErrorCodes.TX_DECODE, `rlp: invalid transaction: ${msg}`);
    }
    if ('chainId' in tx && tx.chainId !== this.chain.common.chainId()) this.checkChainId(raw);
    withSenderMemo(tx, raw);
    // Its hash is the hash of the bytes received (the decoder accepts only canonical encodings,
    // which serialize() would make again to hash them).
    (tx as unknown as { cache: { hash?: Uint8Array } }).cache.hash = hash;
    this.raws.set(tx, raw);
    this.rememberDecoded(memoKey, tx, raw.length);
    return tx;
  }

  private rememberDecoded(memoKey: string, tx: TypedTransaction, size: number): void {
    const decoded = this.decoded;
    while (decoded.size >= DECODED_MEMO_SIZE || (decoded.size > 0 && this.decodedBytes + size > DECODED_MEMO_BYTES)) {
      const [oldestKey, oldest] = decoded.entries().next().value as [string, TypedTransaction];
      decoded.delete(oldestKey);
      this.decodedBytes -= this.raws.get(oldest)?.length ?? 0;
    }
    decoded.set(memoKey, tx);
    this.decodedBytes += size;
  }

  /**
   * @ethereumjs refuses to decode a transaction signed for another chain with a generic error;
   * read the chain id first so the caller gets geth's `invalid chain id for signer`.
   */
  private checkChainId(raw: Uint8Array): void {
    const want = this.chain.common.chainId();
    let have: bigint | undefined;
    try {
      if (raw[0] <= 0x7f) {
        const fields = RLP.decode(raw.subarray(1)) as Uint8Array[];
        have = bytesToBigInt(fields[0]);
      } else {
        const fields = RLP.decode(raw) as Uint8Array[];
        const v = fields.length === 9 ? bytesToBigInt(fields[6]) : undefined;
        // EIP-155: v = chainId * 2 + 35 or 36; 27/28 carry no chain id.
        if (v !== undefined && v >= 35n) have = (v - 35n) / 2n;
      }
    } catch {
      return; // malformed: the decoder below names the problem
    }
    if (have !== undefined && have !== want) {
      throw new AshlarError(ErrorCodes.WRONG_CHAIN_ID, `invalid chain id for signer: have ${have} want ${want}`);
    }
  }

  recoverSender(tx: TypedTransaction): Address {
    if (!tx.isSigned()) throw new AshlarError(ErrorCodes.BAD_SIGNATURE, 'invalid sender: transaction is not signed');
    try {
      return tx.getSenderAddress();
    } catch (e) {
      throw new AshlarError(ErrorCodes.BAD_SIGNATURE, 'invalid sender: signature does not recover a public key', {
        cause: e,
      });
    }
  }

  /**
   * Validates, pools and (automine) mines a transaction whose sender is known. `opts.raw` is its
   * encoding (equal to tx.serialize()) when the caller made it, as a node-signed one's.
   */
  submit(
    tx: TypedTransaction,
    sender: Address,
    opts: { impersonated?: boolean; raw?: Uint8Array } = {},
  ): Promise<SubmitResult> {
    const chain = this.chain;
    let raw: Uint8Array;
    let hash: Uint8Array;
    try {
      raw = opts.raw ?? this.raws.get(tx) ?? serializedWithHash(tx);
      validateStateless(tx, chain.common, this.miner.gasLimit, raw.length);
      hash = tx.hash();
    } catch (e) {
      // Refused before the lock: still a rejected promise, as from the async method this was.
      return Promise.reject(e);
    }
    const hashHex = flatHex(hash);
    // The lock's promise handed back, not awaited in an async method: that was two more
    // microtask turns per transaction before the answer.
    return chain.exclusive(async () => {
      // Answered in memory where they can be: each await here was a promise and microtask turns per transaction.
      if (
        this.mempool.get(hashHex) ||
        (chain.store.hasTxNow(hash) ?? (await chain.store.getTxLocation(hash)) !== undefined)
      ) {
        throw new AshlarError(ErrorCodes.ALREADY_KNOWN, 'already known');
      }
      const sm = chain.vm.stateManager;
      const cached = accountNow(sm, sender);
      const account = cached === undefined ? await sm.getAccount(sender) : (cached ?? undefined);
      validateWithState(tx, sender, account, this.miner.nextBlockBaseFee(), this.miner.minGasPrice);
      const ptx: PendingTx = {
        tx,
        sender,
        hash,
        hashHex,
        seq: this.mempool.nextSeq(),
        raw,
        impersonated: opts.impersonated,
        arrivedAt: Date.now(),
      };
      this.mempool.add(ptx);
      this.events.emit('pendingTransaction', ptx);
      // Behind a nonce gap the transaction waits (queued): no block until the gap is filled.
      const executable =
        tx.nonce === (account?.nonce ?? 0n) || this.mempool.pendingNonce(sender, account?.nonce ?? 0n) > tx.nonce;
      if (!this.miner.automine || !executable) return { hash, mined: false };
      try {
        const r = await this.miner.mineNow();
        const index = r.included.indexOf(ptx);
        if (index >= 0) return { hash, mined: true, receipt: r.stored.receipts[index] };
        // Never a hash for a transaction that is gone: the block could not run it.
        const dropped = r.dropped.find((d) => d.ptx === ptx);
        if (dropped) {
          throw new AshlarError(
            ErrorCodes.TX_NOT_MINED,
            `transaction could not be mined: ${dropped.reason.split(' -> ')[0].split('\n')[0]}`,
          );
        }
        return { hash, mined: false };
      } catch (e) {
        // The block failed to build: the transaction must not linger as if accepted.
        this.mempool.remove(hashHex);
        if (isAshlarError(e)) throw e;
        throw new AshlarError(ErrorCodes.INTERNAL, `block building failed: ${e instanceof Error ? e.message : e}`, {
          cause: e,
        });
      }
    });
  }
}

/**
 * Gives a freshly decoded (unfrozen) transaction a getSenderAddress that recovers once and takes
 * the address from the key on the node's keccak (@ethereumjs's hashes the key on @noble/hashes
 * on every ask: TxService, then runTx), then freezes it so @ethereumjs caches its hash, data fee
 * and recovered key. The key is recovered from the received bytes (primeSenderKey) and let go
 * once the address is made: nothing else asks for it, and the transaction lives on in the block
 * cache for 1,024 blocks, where its 64-byte key was ~0.3 KiB per transfer that the young
 * generation GC copied twice (a later getSenderPublicKey recovers it again).
 */
function withSenderMemo(tx: TypedTransaction, raw: Uint8Array): void {
  let sender: Address | undefined;
  (tx as { getSenderAddress: () => Address }).getSenderAddress = () => {
    if (sender === undefined) {
      primeSenderKey(tx, raw);
      sender = new Address(keccak256(tx.getSenderPublicKey()).slice(12));
      (tx as unknown as { cache: { senderPubKey?: Uint8Array } }).cache.senderPubKey = undefined;
    }
    return sender;
  };
  Object.freeze(tx);
}

/** The transaction's encoding, made here (its hash primed from it). */
function serializedWithHash(tx: TypedTransaction): Uint8Array {
  const raw = tx.serialize();
  primeHash(tx, raw);
  return raw;
}

/**
 * A frozen transaction's hash, cached from the encoding just made: @ethereumjs hashes a
 * transaction's serialisation (legacy: the RLP of its fields, the same bytes) and caches it on a
 * frozen one, but makes the encoding again to do so.
 */
function primeHash(tx: TypedTransaction, raw: Uint8Array): void {
  if (!Object.isFrozen(tx)) return;
  const cache = (tx as unknown as { cache?: { hash?: Uint8Array } }).cache;
  if (cache && cache.hash === undefined) cache.hash = keccak256(raw);
}
