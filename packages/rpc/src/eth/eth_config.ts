import { type KernelServices, defineRpcMethod, toQuantity } from '@ashlar/core';
import { getActivePrecompiles } from '@ethereumjs/evm';
import { type ForkPoint, forkHash, forkSchedule } from '../shared/forkId.js';

/** Precompile names of EIP-7910, by address. */
const PRECOMPILE_NAMES = new Map<number, string>([
  [0x01, 'ECREC'],
  [0x02, 'SHA256'],
  [0x03, 'RIPEMD160'],
  [0x04, 'ID'],
  [0x05, 'MODEXP'],
  [0x06, 'BN254_ADD'],
  [0x07, 'BN254_MUL'],
  [0x08, 'BN254_PAIRING'],
  [0x09, 'BLAKE2F'],
  [0x0a, 'KZG_POINT_EVALUATION'],
  [0x0b, 'BLS12_G1ADD'],
  [0x0c, 'BLS12_G1MSM'],
  [0x0d, 'BLS12_G2ADD'],
  [0x0e, 'BLS12_G2MSM'],
  [0x0f, 'BLS12_PAIRING_CHECK'],
  [0x10, 'BLS12_MAP_FP_TO_G1'],
  [0x11, 'BLS12_MAP_FP2_TO_G2'],
  [0x100, 'P256VERIFY'],
]);

const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';

/** One fork's configuration (EIP-7910), for the rules in force from `fork` on. */
function forkConfig(services: KernelServices, fork: ForkPoint, schedule: ForkPoint[]) {
  const chain = services.chain;
  const common = chain.common.copy();
  common.setHardfork(fork.name);
  const precompiles: Record<string, string> = {};
  for (const address of getActivePrecompiles(common).keys()) {
    const name = PRECOMPILE_NAMES.get(Number.parseInt(address, 16));
    if (name) precompiles[name] = `0x${address}`;
  }
  const systemContracts: Record<string, string> = {};
  if (common.isActivatedEIP(4788)) systemContracts.BEACON_ROOTS_ADDRESS = BEACON_ROOTS;
  if (common.isActivatedEIP(2935))
    systemContracts.HISTORY_STORAGE_ADDRESS = addressParam(common.param('historyStorageAddress'));
  if (common.isActivatedEIP(7002))
    systemContracts.WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS = addressParam(
      common.param('withdrawalRequestPredeployAddress'),
    );
  if (common.isActivatedEIP(7251))
    systemContracts.CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS = addressParam(
      common.param('consolidationRequestPredeployAddress'),
    );
  if (common.isActivatedEIP(6110)) {
    const deposit = (chain.settings.genesis?.config.depositContractAddress as string | undefined) ?? '';
    systemContracts.DEPOSIT_CONTRACT_ADDRESS = deposit.toLowerCase();
  }
  let blobSchedule: { target: number; max: number; baseFeeUpdateFraction: number } | null = null;
  if (common.isActivatedEIP(4844)) {
    const s = common.getBlobGasSchedule();
    const perBlob = common.param('blobGasPerBlob');
    blobSchedule = {
      target: Number(s.targetBlobGasPerBlock / perBlob),
      max: Number(s.maxBlobGasPerBlock / perBlob),
      baseFeeUpdateFraction: Number(s.blobGasPriceUpdateFraction),
    };
  }
  const passed = schedule.slice(0, schedule.indexOf(fork) + 1);
  return {
    activationTime: Number(fork.time ?? 0n),
    blobSchedule,
    chainId: toQuantity(chain.common.chainId()),
    forkId: forkHash(chain.genesis.hash, passed),
    precompiles,
    systemContracts,
  };
}

/** common.param() holds addresses as bigints (or hex strings in older tables). */
function addressParam(v: unknown): string {
  if (typeof v === 'bigint') return `0x${v.toString(16).padStart(40, '0')}`;
  return String(v).toLowerCase();
}

/** EIP-7910: the fork in force at the head, the next scheduled one and the last one. */
export const eth_config = defineRpcMethod({
  name: 'eth_config',
  params: [],
  handler: (ctx) => {
    const chain = ctx.services.chain;
    const head = chain.head.block.header;
    const schedule = forkSchedule(chain.common, chain.genesis.block.header.timestamp);
    const active = (f: ForkPoint) =>
      f.block !== undefined ? f.block <= head.number : (f.time ?? 0n) <= head.timestamp;
    const passed = schedule.filter(active);
    const upcoming = schedule.filter((f) => !active(f));
    // A dev chain schedules every fork at genesis: then the rules in force are the genesis block's.
    const atGenesis = chain.common.copy();
    atGenesis.setHardforkBy({ blockNumber: 0n, timestamp: chain.genesis.block.header.timestamp });
    const current = passed[passed.length - 1] ?? { name: atGenesis.hardfork(), block: 0n };
    const next = upcoming[0];
    const last = upcoming[upcoming.length - 1];
    return {
      current: forkConfig(ctx.services, current, schedule),
      next: next ? forkConfig(ctx.services, next, schedule) : null,
      last: last ? forkConfig(ctx.services, last, schedule) : null,
    };
  },
});
