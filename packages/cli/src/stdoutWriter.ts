import { fstatSync, writeSync } from 'node:fs';

/**
 * How the CLI writes its lines (mined transactions, console.sol, traces) to stdout: where stdout
 * is a regular file (a log file, as test runners and CI redirect it), one write(2) per call with
 * `fs.writeSync`, which is what Node's stream for a file does underneath (SyncWriteStream);
 * anything else (a terminal, a pipe) through `process.stdout`.
 *
 * Why not the stream for a file: its Writable.write, writeOrBuffer and _write are the functions
 * every HTTP answer goes through on its socket. A node's first thousands of answers (reads, then
 * the replies to the first transactions) had V8 optimise them for the socket alone; the first
 * batch of transaction lines, a stream of another class, threw that code away ("wrong map") and
 * it was compiled again for both, inside the node's first thousand automined transfers
 * (`--trace-deopt`: W2 of the peers' harness after W1, 7 deopts with the lines, 3 without).
 *
 * Order is kept with whatever else goes through `process.stdout` (the banner, a plugin's
 * output): while that stream holds unwritten data, lines queue behind it there. A failed write
 * (a full disk, a closed descriptor) is handed to the stream, which reports it as it always has.
 */
export function stdoutWriter(
  fd = 1,
  stream: { write(text: string): unknown; readonly writableLength: number } = process.stdout,
): (text: string) => void {
  if (!isRegularFile(fd)) return (text) => void stream.write(text);
  return (text) => {
    if (stream.writableLength > 0) {
      stream.write(text);
      return;
    }
    try {
      writeSync(fd, text);
    } catch {
      stream.write(text);
    }
  };
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}
