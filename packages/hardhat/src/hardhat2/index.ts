// Hardhat 2: `require('@ashlar/hardhat/hardhat2')` in hardhat.config.js runs the project's
// `hardhat` network on an in-process Ashlar chain. Options come from the config's `ashlar` key.
import { registerHardhat2 } from './register.js';

registerHardhat2();

export { Hardhat2AshlarProvider } from './Hardhat2AshlarProvider.js';
export type { AshlarHardhatOptions } from '../options.js';
