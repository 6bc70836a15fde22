// Background jobs run in this process (no job function configured, as in every handler test): after
// the starting request's turn, tried up to three times, held and released on demand, and a job that
// failed every attempt is reported by settleJobs. The job's runner is replaced here (this file's
// own module registry), so no message is involved.
import { defineJob, holdJobs, releaseJobs, settleJobs, startJob } from '../../../lib/store/jobs';

const suppressErrorLog = () => jest.spyOn(console, 'error').mockImplementation(() => undefined);

describe('in-process background jobs', () => {
  afterEach(() => jest.restoreAllMocks());

  it("runs a started job after the starting code's turn, with a copy of its payload", async () => {
    const seen: unknown[] = [];
    defineJob('messageFanout', async (payload) => {
      seen.push(payload);
    });
    const payload = { messageId: 1 };
    await startJob('messageFanout', payload);
    payload.messageId = 2;
    expect(seen).toEqual([]);
    await settleJobs();
    expect(seen).toEqual([{ messageId: 1 }]);
  });

  it('tries a failing job again, up to three attempts in all', async () => {
    suppressErrorLog();
    let attempts = 0;
    defineJob('messageFanout', async () => {
      attempts += 1;
      if (attempts < 3) throw new Error(`attempt ${attempts} failed`);
    });
    await startJob('messageFanout', {});
    await settleJobs();
    expect(attempts).toBe(3);
  });

  it('reports a job that failed every attempt when the jobs are settled, once', async () => {
    const errors = suppressErrorLog();
    defineJob('messageFanout', async () => {
      throw new Error('always fails');
    });
    await startJob('messageFanout', {});
    await expect(settleJobs()).rejects.toThrow('a background job failed every attempt');
    expect(errors).toHaveBeenCalledTimes(3);
    await expect(settleJobs()).resolves.toBeUndefined();
  });

  it('keeps jobs waiting while held, and runs them when released', async () => {
    let ran = false;
    defineJob('messageFanout', async () => {
      ran = true;
    });
    holdJobs();
    await startJob('messageFanout', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toBe(false);
    releaseJobs();
    await settleJobs();
    expect(ran).toBe(true);
  });
});
