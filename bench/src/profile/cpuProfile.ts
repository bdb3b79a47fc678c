// CPU profile of one stretch of a profile script: started when `file` is given, written on stop.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/** Starts the profiler when `file` is set; the function returned stops it and writes the profile there. */
export async function startCpuProfile(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}
