// accessActiveUsers: the one check that user ids name active users of the organization, against
// the development data (18 is deactivated, 16 a bot, 20 a user of the other organization).
import { accessActiveUsers } from '../../../lib/access/users';
import { BadRequestError } from '../../../lib/errors';
import { dbMetrics } from '../../../lib/store/client';

const errors = {
  unknown: (ids: number[]) => new BadRequestError(`unknown ${ids.join(',')}`),
  deactivated: (u: { id: number }) => new BadRequestError(`deactivated ${u.id}`),
  bot: (u: { id: number }) => new BadRequestError(`bot ${u.id}`),
};

describe('accessActiveUsers', () => {
  it('returns the users by id, reading them in one batched request', async () => {
    dbMetrics.reset();
    const users = await accessActiveUsers(2, [10, 11, 8, 9, 12, 7], errors);
    expect([...users.keys()].sort((a, b) => a - b)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(dbMetrics.byCommand).toEqual({ BatchGetItemCommand: 1 });
  });

  it("reports every unknown id in the order given, another organization's user included, before anything else", async () => {
    await expect(accessActiveUsers(2, [999, 18, 20, 16], errors)).rejects.toThrow('unknown 999,20');
  });

  it('counts a deactivated user as unknown when the caller has no message for deactivated users', async () => {
    await expect(accessActiveUsers(2, [10, 18, 999], { unknown: errors.unknown })).rejects.toThrow('unknown 18,999');
  });

  it('checks the users by ascending id, whatever the order given', async () => {
    await expect(accessActiveUsers(2, [18, 16], errors)).rejects.toThrow('bot 16');
    await expect(accessActiveUsers(2, [10, 18], errors)).rejects.toThrow('deactivated 18');
  });

  it('reports a bot only when the caller asks', async () => {
    await expect(accessActiveUsers(2, [16], errors)).rejects.toThrow('bot 16');
    expect((await accessActiveUsers(2, [16], { unknown: errors.unknown })).get(16)?.isBot).toBe(true);
  });
});
