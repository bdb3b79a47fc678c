import type { StateManagerInterface } from '@ethereumjs/common';
import { Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { ChainService } from '../chain/ChainService.js';
import type { StoredBlock } from '../chain/types.js';

/** Gas for one metadata read: enough for any sane `name()`, little enough that a trap ends fast. */
const CALL_GAS = 2_000_000n;
const ZERO = new Address(new Uint8Array(20));

/** The state after one block, as the indexer needs it: balances, code, and read-only calls. */
export interface StateReader {
  balance(address: Uint8Array): Promise<bigint>;
  hasCode(address: Uint8Array): Promise<boolean>;
  /**
   * The balance of the block's touched address at `slot` (its position in BlockRows.touched) if
   * it was read already (no await), else undefined: then ask `balance`.
   */
  knownBalance(slot: number): bigint | undefined;
  /** Whether the touched address at `slot` holds code, if that was read already, else undefined: then ask `hasCode`. */
  knownHasCode(slot: number): boolean | undefined;
  /** The return data of a static call, or undefined when it fails. */
  call(to: Uint8Array, data: Uint8Array): Promise<Uint8Array | undefined>;
}

/** What was read of a block's touched addresses at commit, by their position in BlockRows.touched. */
export interface KnownState {
  balances: readonly bigint[];
  /** Set for the addresses called with input (holes elsewhere). */
  hasCode: readonly (boolean | undefined)[];
}

/**
 * Reads the state a block left. Balances and code come from `sm` (the head's live state
 * manager for a block just mined, a historical view when rebuilding); calls run on a VM of
 * their own at the block's state root, made only when a new token needs probing, so nothing the
 * index does can disturb the chain's VM.
 */
export class BlockStateReader implements StateReader {
  private vm?: Promise<VM>;
  private sm?: Promise<StateManagerInterface>;

  constructor(
    private readonly chain: ChainService,
    private readonly sb: StoredBlock,
    /** The state manager to read, made on first need (a view of past state costs a trie walk). */
    private readonly stateManager: () => Promise<StateManagerInterface>,
    /** What was read at the block's state when it was committed (rows from the same capture). */
    private readonly known?: KnownState,
  ) {}

  private state(): Promise<StateManagerInterface> {
    this.sm ??= this.stateManager();
    return this.sm;
  }

  knownBalance(slot: number): bigint | undefined {
    return slot >= 0 ? this.known?.balances[slot] : undefined;
  }

  knownHasCode(slot: number): boolean | undefined {
    return slot >= 0 ? this.known?.hasCode[slot] : undefined;
  }

  async balance(address: Uint8Array): Promise<bigint> {
    return (await (await this.state()).getAccount(new Address(address)))?.balance ?? 0n;
  }

  async hasCode(address: Uint8Array): Promise<boolean> {
    const acct = await (await this.state()).getAccount(new Address(address));
    return acct?.isContract() === true;
  }

  private callVm(): Promise<VM> {
    this.vm ??= (async () => {
      const sm = this.chain.newStateManager();
      await sm.setStateRoot(this.sb.block.header.stateRoot);
      return this.chain.createVmOn(sm);
    })();
    return this.vm;
  }

  async call(to: Uint8Array, data: Uint8Array): Promise<Uint8Array | undefined> {
    const vm = await this.callVm();
    await vm.evm.journal.checkpoint();
    try {
      const res = await vm.evm.runCall({
        to: new Address(to),
        caller: ZERO,
        data,
        gasLimit: CALL_GAS,
        block: this.sb.block,
        isStatic: true,
        skipNonceIncrement: true,
      });
      return res.execResult.exceptionError ? undefined : res.execResult.returnValue;
    } catch {
      return undefined;
    } finally {
      await vm.evm.journal.revert();
    }
  }
}
