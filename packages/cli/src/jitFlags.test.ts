import { describe, expect, it } from 'vitest';
import { JIT_FLAGS, jitFlagsToSet } from './jitFlags.js';

describe('jitFlagsToSet', () => {
  it('sets the default list unless the environment replaces it', () => {
    expect(jitFlagsToSet({}, [])).toEqual([...JIT_FLAGS]);
    expect(jitFlagsToSet({ ASHLAR_JIT_FLAGS: '' }, [])).toEqual([]);
    expect(jitFlagsToSet({ ASHLAR_JIT_FLAGS: ' --always-sparkplug  --max-lazy ' }, [])).toEqual([
      '--always-sparkplug',
      '--max-lazy',
    ]);
  });

  it('leaves alone a flag the user gave node, in either spelling, on the command line or in NODE_OPTIONS', () => {
    const env = { ASHLAR_JIT_FLAGS: '--always-sparkplug --no-lazy-feedback-allocation' };
    expect(jitFlagsToSet(env, ['--no-always-sparkplug'])).toEqual(['--no-lazy-feedback-allocation']);
    expect(jitFlagsToSet({ ...env, NODE_OPTIONS: '--lazy_feedback_allocation' }, [])).toEqual(['--always-sparkplug']);
  });
});
