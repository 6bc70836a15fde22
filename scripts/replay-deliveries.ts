// `npm run replay-deliveries -- --queue-url <url>`: replays the entries of the delivery dead-letter
// queue (serverless.yml DeliveryDeadLetterQueue; its URL is in the stack's resources), each one a
// message delivery that failed every attempt (lib/actions/message-delivery.ts doReplayDeadLetter),
// and deletes each entry once its delivery is done. Reaches the stage's tables as `npm run seed`
// does (TABLE_PREFIX, or TABLE_MAIN and TABLE_EVENTS, and the AWS credentials of the environment).
// An entry that fails again stays in the queue, and the command ends with an error.
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { doReplayDeadLetter } from '../lib/actions/message-delivery';
import { config } from '../lib/config';
import { closeClients } from '../lib/store/client';

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
          const { messages } = await doReplayDeadLetter(entry.Body ?? '');
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
