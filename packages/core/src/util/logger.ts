// The logger every service takes; its own module so services need nothing from kernel/.

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  debug(msg: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };
