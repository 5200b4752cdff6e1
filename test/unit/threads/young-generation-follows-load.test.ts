import { describe, expect, it } from 'vitest';
import {
  GATEWAY_LOAD_THRESHOLDS,
  YoungGenerationFollowsLoad,
} from '../../../src-server/core/threads/young-generation-follows-load.js';
import { youngGenerationOfChild } from './young-generation-child.js';

const UNDER_LOAD = 'young-generation-under-load.ts';

/** A follower whose decisions are collected, fed `perSecond` requests for each of `seconds` one-second samples. */
function follower() {
  const decisions: boolean[] = [];
  const load = new YoungGenerationFollowsLoad((grow) => decisions.push(grow), GATEWAY_LOAD_THRESHOLDS);
  const run = (perSecond: number, seconds: number) => {
    for (let second = 0; second < seconds; second++) {
      for (let request = 0; request < perSecond; request++) load.countRequest();
      load.sample(1);
    }
  };
  return { load, decisions, run };
}

describe('the young generation following the gateway load', () => {
  const { busyPerSecond, busyForSeconds, quietPerSecond, quietForSeconds } = GATEWAY_LOAD_THRESHOLDS;

  it('lets it grow once the gateway has been busy long enough, once', () => {
    const { load, decisions, run } = follower();
    run(busyPerSecond, busyForSeconds - 1);
    expect(decisions).toEqual([]);
    run(busyPerSecond, 1);
    expect(decisions).toEqual([true]);
    run(busyPerSecond * 10, 20);
    expect(decisions).toEqual([true]);
    expect(load.growing).toBe(true);
  });

  it('does not count a burst broken by a slower second as sustained', () => {
    const { decisions, run } = follower();
    for (let burst = 0; burst < 10; burst++) {
      run(busyPerSecond * 4, busyForSeconds - 1);
      run(busyPerSecond - 1, 1);
    }
    expect(decisions).toEqual([]);
  });

  it('holds it small again after the gateway has been quiet long enough, and not during a short lull', () => {
    const { load, decisions, run } = follower();
    run(busyPerSecond, busyForSeconds);
    run(0, quietForSeconds - 1);
    run(busyPerSecond, 1);
    run(quietPerSecond - 1, quietForSeconds - 1);
    expect(decisions).toEqual([true]);
    run(0, 1);
    expect(decisions).toEqual([true, false]);
    expect(load.growing).toBe(false);
    run(busyPerSecond, busyForSeconds);
    expect(decisions).toEqual([true, false, true]);
  });

  it('holds it small when stopped while growing', () => {
    const { load, decisions, run } = follower();
    run(busyPerSecond, busyForSeconds);
    load.stop();
    expect(decisions).toEqual([true, false]);
  });

  it('reads rates over samples longer than a second', () => {
    const { load, decisions } = follower();
    for (let sample = 0; sample < busyForSeconds / 3 + 1; sample++) {
      for (let request = 0; request < busyPerSecond * 3; request++) load.countRequest();
      load.sample(3);
    }
    expect(decisions).toEqual([true]);
  });

  it('grows a real young generation under `serve`’s small heap only after the gateway got busy', async () => {
    const quiet = await youngGenerationOfChild(['quiet'], UNDER_LOAD);
    expect(quiet.after).toBe(quiet.before);
    const busy = await youngGenerationOfChild(['busy'], UNDER_LOAD);
    expect(busy.after).toBeGreaterThan(busy.before);
  });
});
