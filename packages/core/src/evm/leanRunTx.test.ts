import { type Block, createBlock } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import {
  type TypedTransaction,
  createAccessList2930Tx,
  createEOACode7702Tx,
  createFeeMarket1559Tx,
  createLegacyTx,
} from '@ethereumjs/tx';
import {
  Account,
  Address,
  bytesToHex,
  concatBytes,
  createAddressFromPrivateKey,
  createContractAddress,
  eoaCode7702SignAuthorization,
  hexToBytes,
} from '@ethereumjs/util';
import type { Message } from '@ethereumjs/evm';
import { type RunTxResult, type VM, createVM, runTx } from '@ethereumjs/vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { installEngineSpeedups } from './internals.js';
import { leanEligible, runTxLean } from './leanRunTx.js';

const key = (n: number) => hexToBytes(`0x${n.toString(16).padStart(2, '0').repeat(32)}`);
const ALICE = key(0x11);
const BOB = key(0x22);
const POOR = key(0x33);
const CODED = key(0x44);
const DELEGATED = key(0x55);
const addr = (hex: string) => new Address(hexToBytes(`0x${hex.padStart(40, '0')}`));
const COINBASE = addr('c0');
const RECIPIENT = addr('beef');
// SSTORE(1, 7), LOG1(mem[0..32), topic 1) with mem[0] = 0x2a, RETURN 32 bytes
const LOGGER = addr('a1');
const LOGGER_CODE = '0x6007600155602a600052600160206000a160206000f3';
const REVERTS = addr('a2'); // REVERT(0, 0)
const LOOPS = addr('a3'); // JUMPDEST PUSH1 0 JUMP: runs out of gas
const CLEARS = addr('a4'); // SSTORE(0, 0) on a set slot: a refund
const SUICIDE = addr('a5'); // SELFDESTRUCT(CALLER)
// init code: SELFDESTRUCT(CALLER) while being created (same-transaction destruction)
const SELFDESTRUCT_INIT = '0x33ff';
// init code returning the runtime 0x602a60005260206000f3 (returns 42)
const DEPLOY_INIT = '0x69602a60005260206000f3600052600a6016f3';

const hardforks = [
  Hardfork.Berlin,
  Hardfork.London,
  Hardfork.Shanghai,
  Hardfork.Cancun,
  Hardfork.Prague,
  Hardfork.SpuriousDragon,
] as const;

type RunFn = (vm: VM, opts: Parameters<typeof runTx>[1]) => Promise<RunTxResult>;

/** A VM with the same accounts and code for every run. */
async function makeVm(common: Common): Promise<VM> {
  const stateManager = new MerkleStateManager({ common });
  const vm = await createVM({ common, stateManager });
  const sm = vm.stateManager;
  for (const k of [ALICE, BOB, CODED, DELEGATED]) {
    await sm.putAccount(createAddressFromPrivateKey(k), new Account(0n, 10n ** 21n));
  }
  await sm.putAccount(createAddressFromPrivateKey(POOR), new Account(0n, 50_000n));
  await sm.putCode(createAddressFromPrivateKey(CODED), hexToBytes('0x6000'));
  await sm.putCode(createAddressFromPrivateKey(DELEGATED), concatBytes(hexToBytes('0xef0100'), LOGGER.bytes));
  await sm.putCode(LOGGER, hexToBytes(LOGGER_CODE));
  await sm.putCode(REVERTS, hexToBytes('0x60006000fd'));
  await sm.putCode(LOOPS, hexToBytes('0x5b600056'));
  await sm.putCode(CLEARS, hexToBytes('0x6000600055'));
  await sm.putStorage(CLEARS, new Uint8Array(32), hexToBytes('0x05'));
  await sm.putCode(SUICIDE, hexToBytes('0x33ff'));
  await sm.putAccount(SUICIDE, new Account(1n, 1234n, undefined, (await sm.getAccount(SUICIDE))?.codeHash));
  return vm;
}

interface TxSpec {
  name: string;
  from: Uint8Array;
  type: 0 | 1 | 2;
  to?: Address;
  value?: bigint;
  data?: string;
  gasLimit?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  nonceDelta?: bigint;
  accessList?: { address: `0x${string}`; storageKeys: `0x${string}`[] }[];
  /** Only from this hardfork on (typed transactions, EIP-7623 floor, 7702 delegation). */
  since?: Hardfork;
  /** runTx options besides the miner's (eth_call's skips, hardfork validation). */
  opts?: {
    skipNonce?: boolean;
    skipBalance?: boolean;
    skipBlockGasLimitValidation?: boolean;
    skipHardForkValidation?: boolean;
  };
}

const heavyData = `0x${'ab'.repeat(1000)}`;
const SPECS: TxSpec[] = [
  { name: 'legacy transfer', from: ALICE, type: 0, to: RECIPIENT, value: 1000n },
  { name: 'legacy transfer to a new account', from: ALICE, type: 0, to: addr('1234'), value: 1n },
  {
    name: '2930 transfer with access list',
    from: BOB,
    type: 1,
    to: RECIPIENT,
    value: 5n,
    gasLimit: 30_000n,
    accessList: [{ address: LOGGER.toString(), storageKeys: [`0x${'00'.repeat(31)}01`] }],
  },
  { name: '1559 transfer', from: ALICE, type: 2, to: RECIPIENT, value: 7n, since: Hardfork.London },
  { name: 'contract creation', from: ALICE, type: 2, data: DEPLOY_INIT, gasLimit: 200_000n, since: Hardfork.London },
  { name: 'legacy contract creation', from: BOB, type: 0, data: DEPLOY_INIT, gasLimit: 200_000n },
  { name: 'call with a log', from: ALICE, type: 0, to: LOGGER, gasLimit: 100_000n },
  {
    name: '2930 call with warmed slot',
    from: BOB,
    type: 1,
    to: LOGGER,
    gasLimit: 100_000n,
    accessList: [{ address: LOGGER.toString(), storageKeys: [`0x${'00'.repeat(31)}01`] }],
  },
  { name: 'revert', from: ALICE, type: 2, to: REVERTS, gasLimit: 60_000n, since: Hardfork.London },
  { name: 'legacy revert', from: BOB, type: 0, to: REVERTS, gasLimit: 60_000n },
  { name: 'out of gas', from: BOB, type: 0, to: LOOPS, gasLimit: 40_000n },
  { name: 'refund (SSTORE clear)', from: ALICE, type: 0, to: CLEARS, gasLimit: 60_000n },
  { name: 'selfdestruct (not created in the tx)', from: BOB, type: 0, to: SUICIDE, gasLimit: 60_000n },
  { name: 'selfdestruct (created in the tx)', from: ALICE, type: 0, data: SELFDESTRUCT_INIT, gasLimit: 100_000n },
  {
    name: 'calldata-heavy transfer (EIP-7623 floor)',
    from: BOB,
    type: 2,
    to: RECIPIENT,
    data: heavyData,
    gasLimit: 80_000n,
    since: Hardfork.London,
  },
  {
    name: 'calldata floor above gas limit (intrinsic too low)',
    from: BOB,
    type: 2,
    to: RECIPIENT,
    data: heavyData,
    gasLimit: 40_000n,
    since: Hardfork.London,
  },
  { name: 'wrong nonce', from: ALICE, type: 0, to: RECIPIENT, nonceDelta: 1n },
  { name: 'insufficient balance', from: POOR, type: 0, to: RECIPIENT, value: 10n ** 18n },
  { name: 'insufficient balance for gas', from: POOR, type: 0, to: RECIPIENT, gasLimit: 21_000n, gasPrice: 10n },
  { name: 'intrinsic gas too low', from: ALICE, type: 0, to: RECIPIENT, gasLimit: 20_000n },
  {
    name: 'maxFeePerGas below base fee',
    from: ALICE,
    type: 2,
    to: RECIPIENT,
    maxFeePerGas: 1n,
    since: Hardfork.London,
  },
  { name: 'legacy gasPrice below base fee', from: ALICE, type: 0, to: RECIPIENT, gasPrice: 1n, since: Hardfork.London },
  { name: 'sender with code (EIP-3607)', from: CODED, type: 0, to: RECIPIENT },
  { name: 'EIP-7702-delegated sender', from: DELEGATED, type: 2, to: RECIPIENT, since: Hardfork.Prague },
  { name: 'gas limit above the block', from: ALICE, type: 0, to: RECIPIENT, gasLimit: 31_000_000n },
  {
    name: 'gas limit above the block, not validated',
    from: ALICE,
    type: 0,
    to: RECIPIENT,
    gasLimit: 31_000_000n,
    opts: { skipBlockGasLimitValidation: true },
  },
  { name: 'hardfork validated', from: BOB, type: 0, to: RECIPIENT, value: 2n, opts: { skipHardForkValidation: false } },
  {
    name: 'wrong nonce, skipNonce (eth_call)',
    from: ALICE,
    type: 0,
    to: RECIPIENT,
    nonceDelta: 3n,
    opts: { skipNonce: true },
  },
  {
    name: 'poor sender, skipBalance (eth_call, legacy)',
    from: POOR,
    type: 0,
    to: LOGGER,
    value: 10n ** 18n,
    gasLimit: 100_000n,
    opts: { skipBalance: true, skipNonce: true },
  },
  {
    name: 'poor sender, skipBalance (eth_call, 1559)',
    from: POOR,
    type: 2,
    to: RECIPIENT,
    value: 10n ** 18n,
    opts: { skipBalance: true, skipNonce: true },
    since: Hardfork.London,
  },
  { name: 'transfer after the failures', from: ALICE, type: 2, to: RECIPIENT, value: 3n, since: Hardfork.London },
  // Value transfers to accounts without code take plainCall.ts's steps; the others runCall's.
  { name: 'zero-value transfer to a new account (EIP-161)', from: BOB, type: 0, to: addr('5678'), value: 0n },
  { name: 'transfer to the sender itself', from: BOB, type: 0, to: createAddressFromPrivateKey(BOB), value: 9n },
  { name: 'transfer to the coinbase', from: ALICE, type: 0, to: COINBASE, value: 11n },
  { name: 'transfer to a precompile (identity)', from: ALICE, type: 0, to: addr('04'), value: 13n, gasLimit: 30_000n },
  { name: 'transfer to a contract, no input', from: BOB, type: 0, to: REVERTS, value: 1n, gasLimit: 60_000n },
  {
    name: 'transfer to an EIP-7702-delegated account',
    from: ALICE,
    type: 2,
    to: createAddressFromPrivateKey(DELEGATED),
    value: 15n,
    gasLimit: 100_000n,
    since: Hardfork.Prague,
  },
];

function blockFor(common: Common): Block {
  const london = common.gteHardfork(Hardfork.London);
  return createBlock(
    {
      header: {
        number: 1n,
        coinbase: COINBASE,
        gasLimit: 30_000_000n,
        timestamp: 1n,
        gasUsed: 0n,
        ...(london ? { baseFeePerGas: 7n } : {}),
      },
    },
    { common },
  );
}

async function buildTx(spec: TxSpec, vm: VM, common: Common): Promise<TypedTransaction> {
  const sender = createAddressFromPrivateKey(spec.from);
  const nonce = ((await vm.stateManager.getAccount(sender))?.nonce ?? 0n) + (spec.nonceDelta ?? 0n);
  const base = {
    nonce,
    to: spec.to,
    value: spec.value ?? 0n,
    data: spec.data === undefined ? undefined : hexToBytes(spec.data as `0x${string}`),
    gasLimit: spec.gasLimit ?? 21_000n,
  };
  const london = common.gteHardfork(Hardfork.London);
  if (spec.type === 2) {
    return createFeeMarket1559Tx(
      { ...base, maxFeePerGas: spec.maxFeePerGas ?? 100n, maxPriorityFeePerGas: spec.maxFeePerGas ?? 2n },
      { common },
    ).sign(spec.from);
  }
  const gasPrice = spec.gasPrice ?? (london ? 50n : 10n);
  if (spec.type === 1) {
    return createAccessList2930Tx({ ...base, gasPrice, accessList: spec.accessList ?? [] }, { common }).sign(spec.from);
  }
  return createLegacyTx({ ...base, gasPrice }, { common }).sign(spec.from);
}

const hex = (v: unknown): unknown => {
  if (v instanceof Uint8Array) return bytesToHex(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Address) return v.toString();
  if (Array.isArray(v)) return v.map(hex);
  return v;
};

/** Everything a caller reads of a result, as comparable values. */
function shown(r: RunTxResult): Record<string, unknown> {
  const e = r.execResult;
  return {
    keys: Object.keys(r),
    totalGasSpent: r.totalGasSpent,
    blockGasSpent: r.blockGasSpent,
    amountSpent: r.amountSpent,
    minerValue: r.minerValue,
    gasRefund: r.gasRefund,
    bloom: bytesToHex(r.bloom.bitvector),
    receipt: Object.entries(r.receipt).map(([k, v]) => [k, hex(v)]),
    returnValue: bytesToHex(e.returnValue),
    exceptionError: e.exceptionError?.error,
    executionGasUsed: e.executionGasUsed,
    logs: hex(e.logs ?? []),
    createdAddress: (r as { createdAddress?: Address }).createdAddress?.toString(),
  };
}

/** Runs every spec on a fresh VM with `run`; what each returned or threw, the events and the state root. */
async function runAll(hardfork: Hardfork, run: RunFn, expectLean: boolean | undefined) {
  const common = new Common({ chain: Mainnet, hardfork });
  const vm = await makeVm(common);
  const block = blockFor(common);
  const events: unknown[] = [];
  vm.events.on('beforeTx', (tx: TypedTransaction) => events.push(['beforeTx', bytesToHex(tx.hash())]));
  // Every message the EVM announces (what the call-frame tracer builds frames from), as listeners see it.
  vm.evm.events.on('beforeMessage', (m: Message) =>
    events.push([
      'beforeMessage',
      Object.keys(m),
      m.caller.toString(),
      m.to?.toString(),
      m.value,
      m.gasLimit,
      bytesToHex(m.data),
      m.depth,
    ]),
  );
  vm.evm.events.on('afterMessage', (r: { createdAddress?: Address; execResult: RunTxResult['execResult'] }) => {
    const e = r.execResult;
    events.push([
      'afterMessage',
      Object.keys(r),
      e.executionGasUsed,
      bytesToHex(e.returnValue),
      e.exceptionError?.error,
      e.gasRefund,
      hex(e.logs ?? []),
    ]);
  });
  vm.events.on('afterTx', (ev: RunTxResult & { transaction: TypedTransaction }) => {
    const { transaction, ...rest } = ev;
    events.push(['afterTx', Object.keys(ev), bytesToHex(transaction.hash()), shown(rest as RunTxResult)]);
  });
  const outcomes: unknown[] = [];
  let gasUsed = 0n;
  for (const spec of SPECS) {
    if (spec.since !== undefined && !common.gteHardfork(spec.since)) continue;
    if (spec.type !== 0 && !common.gteHardfork(Hardfork.Berlin)) continue;
    const tx = await buildTx(spec, vm, common);
    const opts = { tx, block, blockGasUsed: gasUsed, skipHardForkValidation: true, ...spec.opts };
    if (expectLean !== undefined) expect(leanEligible(vm, opts), spec.name).toBe(expectLean);
    try {
      const r = await run(vm, opts);
      gasUsed += r.blockGasSpent;
      outcomes.push([spec.name, shown(r)]);
    } catch (e) {
      outcomes.push([spec.name, 'threw', (e as Error).message]);
    }
    outcomes.push([spec.name, 'root', bytesToHex(await vm.stateManager.getStateRoot())]);
  }
  // The journal left as stock leaves it between transactions.
  const journal = vm.evm.journal as unknown as { journalHeight: number; touched: Set<string> };
  return { outcomes, events, journal: [journal.journalHeight, [...journal.touched]] };
}

beforeAll(async () => {
  await installEngineSpeedups();
});

describe('runTxLean gives what stock runTx gives', () => {
  for (const hardfork of hardforks) {
    const lean = hardfork !== Hardfork.SpuriousDragon;
    it(`${hardfork}: every transaction kind, failure and event, and the state root after each (${lean ? 'lean path' : 'stock fallback'})`, async () => {
      const stock = await runAll(hardfork, runTx, undefined);
      const mine = await runAll(hardfork, runTxLean, lean);
      expect(mine).toEqual(stock);
      // The run did what the specs name (not everything failing alike): spot checks against the protocol.
      const flat = JSON.stringify(stock.outcomes, (_k, v) => (typeof v === 'bigint' ? `${v}` : v));
      expect(flat).toContain("the tx doesn't have the correct nonce");
      expect(flat).toContain("sender doesn't have enough funds to send tx");
      expect(flat).toContain('INTRINSIC_GAS_TOO_LOW');
      expect(flat).toContain('tx has a higher gas limit than the block');
      // The skips let through what they skip (eth_call's path), as stock does.
      const ran = (name: string) =>
        stock.outcomes.some((o) => (o as unknown[])[0] === name && typeof (o as unknown[])[1] === 'object');
      expect(ran('wrong nonce, skipNonce (eth_call)')).toBe(true);
      expect(ran('poor sender, skipBalance (eth_call, legacy)')).toBe(true);
      expect(ran('gas limit above the block, not validated')).toBe(true);
      expect(ran('hardfork validated')).toBe(true);
      expect(flat).toContain('invalid sender address, address is not EOA (EIP-3607)');
      // REVERT is an opcode from Byzantium on (an invalid one before).
      if (lean) expect(flat).toContain('"exceptionError":"revert"');
      expect(flat).toContain('"exceptionError":"out of gas"');
    });
  }

  it('charges the EIP-7623 calldata floor under Prague, not before', async () => {
    const prague = await runAll(Hardfork.Prague, runTxLean, true);
    const cancun = await runAll(Hardfork.Cancun, runTxLean, true);
    const heavy = (o: unknown[]) =>
      (
        o.find((x) => (x as unknown[])[0] === 'calldata-heavy transfer (EIP-7623 floor)') as [
          string,
          { totalGasSpent: bigint },
        ]
      )[1];
    // 1000 non-zero bytes: floor 21000 + 10 * 4000 tokens; standard cost 21000 + 16 * 1000.
    expect(heavy(prague.outcomes).totalGasSpent).toBe(61_000n);
    expect(heavy(cancun.outcomes).totalGasSpent).toBe(37_000n);
  });

  it('deploys to the address derived from sender and nonce; refunds as EIP-3529 and before it', async () => {
    const of = (outcomes: unknown[], name: string) =>
      (outcomes.find((x) => (x as unknown[])[0] === name) as [string, Record<string, unknown>])[1];
    const london = (await runAll(Hardfork.London, runTxLean, true)).outcomes;
    const alice = createAddressFromPrivateKey(ALICE);
    expect(of(london, 'contract creation').createdAddress).toBe(createContractAddress(alice, 3n).toString());
    // SSTORE 5 -> 0 at London: 2100 cold + 2900 reset and two PUSH1, refund 4800 (under gas used / 5).
    const used = 21_000n + 3n + 3n + 2_100n + 2_900n;
    expect(of(london, 'refund (SSTORE clear)').gasRefund).toBe(4_800n);
    expect(of(london, 'refund (SSTORE clear)').totalGasSpent).toBe(used - 4_800n);
    // Berlin: SELFDESTRUCT refunds 24000, capped at half the gas used (maxRefundQuotient 2).
    const berlin = (await runAll(Hardfork.Berlin, runTxLean, true)).outcomes;
    const sd = of(berlin, 'selfdestruct (not created in the tx)');
    const sdUsed = 21_000n + 2n + 5_000n;
    expect(sd.gasRefund).toBe(24_000n);
    expect(sd.totalGasSpent).toBe(sdUsed - sdUsed / 2n);
  });

  it('leaves to stock runTx what it does not mirror: EIP-7702 authorizations, access-list and preimage reports, no block', async () => {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const outcome = async (run: RunFn) => {
      const vm = await makeVm(common);
      const block = blockFor(common);
      const transfer = await buildTx(SPECS[0], vm, common);
      for (const extra of [{ reportAccessList: true }, { reportPreimages: true }]) {
        expect(leanEligible(vm, { tx: transfer, block, ...extra })).toBe(false);
      }
      expect(leanEligible(vm, { tx: transfer })).toBe(false);
      expect(leanEligible(vm, { tx: transfer, block })).toBe(true);
      // ALICE sends a 7702 transaction carrying BOB's authorization to delegate to LOGGER.
      const bob = createAddressFromPrivateKey(BOB);
      const auth = eoaCode7702SignAuthorization([hexToBytes('0x01'), LOGGER.bytes, hexToBytes('0x')], BOB);
      const nonce = (await vm.stateManager.getAccount(createAddressFromPrivateKey(ALICE)))?.nonce ?? 0n;
      const tx = createEOACode7702Tx(
        {
          nonce,
          to: bob,
          gasLimit: 100_000n,
          maxFeePerGas: 100n,
          maxPriorityFeePerGas: 2n,
          authorizationList: [auth],
        },
        { common },
      ).sign(ALICE);
      const opts = { tx, block, skipHardForkValidation: true };
      expect(leanEligible(vm, opts)).toBe(false);
      const r = await run(vm, opts);
      return {
        result: shown(r),
        code: bytesToHex(await vm.stateManager.getCode(bob)),
        root: bytesToHex(await vm.stateManager.getStateRoot()),
      };
    };
    const stock = await outcome(runTx);
    expect(await outcome(runTxLean)).toEqual(stock);
    // The delegation was set (0xef0100 ++ LOGGER), and the call ran LOGGER's code (its log).
    expect(stock.code).toBe(bytesToHex(concatBytes(hexToBytes('0xef0100'), LOGGER.bytes)));
    expect((stock.result.logs as unknown[]).length).toBe(1);
  });
});
