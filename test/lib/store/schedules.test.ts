import { buildScheduleInput } from '../../../lib/store/schedules';

describe('buildScheduleInput', () => {
  it("is a one-time at() schedule in UTC that invokes the job's function with the payload, deleted once run", () => {
    const input = buildScheduleInput(
      {
        name: 'scheduled-2-10-7',
        atSeconds: Date.UTC(2030, 0, 2, 3, 4, 5) / 1000,
        job: 'scheduledDelivery',
        payload: { realmId: 2, userId: 10, id: 7 },
      },
      {
        roleArn: 'arn:aws:iam::1:role/r',
        group: 'default',
        functionArnPrefix: 'arn:aws:lambda:eu-west-1:1:function:',
        endpoint: undefined,
      },
    );
    expect(input).toEqual({
      Name: 'scheduled-2-10-7',
      GroupName: 'default',
      ScheduleExpression: 'at(2030-01-02T03:04:05)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: `arn:aws:lambda:eu-west-1:1:function:${process.env.SCHEDULED_DELIVERY_FUNCTION ?? 'scheduledDelivery'}`,
        RoleArn: 'arn:aws:iam::1:role/r',
        Input: '{"realmId":2,"userId":10,"id":7}',
        RetryPolicy: { MaximumRetryAttempts: 3 },
      },
    });
  });
});
