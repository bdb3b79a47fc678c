import { LazyAshlarProvider, type RequestArguments } from '../lazyProvider.js';

/**
 * Methods Hardhat 2's own tasks ask its in-process network that are no part of the chain:
 * `hardhat test` asks how many stack traces failed once the tests end.
 */
const HARDHAT_TASK_METHODS: Record<string, unknown> = { hardhat_getStackTraceFailuresCount: 0 };

/** A provider for Hardhat 2's `hre.network.provider`: Ashlar, plus the answers its tasks expect. */
export class Hardhat2AshlarProvider extends LazyAshlarProvider {
  override async request<T = unknown>(args: RequestArguments): Promise<T> {
    if (Object.hasOwn(HARDHAT_TASK_METHODS, args.method)) return HARDHAT_TASK_METHODS[args.method] as T;
    return super.request<T>(args);
  }
}
