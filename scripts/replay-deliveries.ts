// `npm run replay-deliveries -- --queue-url <url>`: replays the entries of the delivery dead-letter
// queue (serverless.yml DeliveryDeadLetterQueue; its URL is in the stack's resources), each one a
// message delivery that failed every attempt (lib/actions/message-delivery.ts doReplayDeadLetter)
// or a run of a topic move's messageMove job (lib/actions/message-edit.ts doMessageMove),
// and deletes each entry once its delivery is done. Reaches the stage's tables as `npm run seed`
// does (TABLE_PREFIX, or TABLE_MAIN and TABLE_EVENTS, and the AWS credentials of the environment).
// An entry that fails again stays in the queue, and the command ends with an error.
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { doReplayDeadLetter } from '../lib/actions/message-delivery';
import { doMessageMove, moveJobOfDeadLetter } from '../lib/actions/message-edit';
import { config } from '../lib/config';
import { closeClients } from '../lib/store/client';
import { settleJobs } from '../lib/store/jobs';

/** Replays one entry: a messageMove run (the move goes on to its end) or a delivery. */
const replay = async (body: string): Promise<{ messages: number }> => {
  const move = moveJobOfDeadLetter(body);
  if (!move) return doReplayDeadLetter(body);
  await doMessageMove(move);
  // Its next runs: in this process unless MESSAGE_MOVE_FUNCTION names the deployed function.
  await settleJobs();
  return { messages: move.total };
};

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const main = async (): Promise<void> => {
  const queueUrl = argValue('--queue-url') ?? process.env.DELIVERY_DLQ_URL;
  if (!queueUrl) throw new Error('usage: npm run replay-deliveries -- --queue-url <the delivery dead-letter queue URL>');
  const sqs = new SQSClient({ region: config.region() });
  let replayed = 0;
  let failed = 0;
  try {
    for (;;) {
      const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 300 }));
      const entries = out.Messages ?? [];
      if (entries.length === 0) break;
      for (const entry of entries) {
        try {
          const { messages } = await replay(entry.Body ?? '');
          await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: entry.ReceiptHandle }));
          replayed += 1;
          console.log(`replayed ${entry.MessageId} (${messages} message${messages === 1 ? '' : 's'})`);
        } catch (error) {
          failed += 1;
          console.error(`${entry.MessageId}: ${String((error as Error).stack ?? error)}`);
        }
      }
    }
  } finally {
    sqs.destroy();
    closeClients();
  }
  console.log(`${replayed} replayed, ${failed} failed`);
  if (failed > 0) process.exit(1);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
