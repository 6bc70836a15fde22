// `npm run reindex [-- <organization subdomain or id>...]`: rebuilds the search index's rows of
// the named organizations (all when none) from DynamoDB: after the first deploy, and after an
// outage of the searchIndex consumer longer than the stream's 24 hours. It reads the tables and
// the search database this environment names (TABLE_PREFIX or TABLE_MAIN, SEARCH_CLUSTER_ARN,
// SEARCH_SECRET_ARN, AWS credentials; SEARCH_ENDPOINT for a local stand-in). `npm start`
// reindexes its fresh data set itself.
import { doReindexRealm } from '../lib/actions/messages/search-index';
import { listAllForOperator } from '../lib/store/realms';

const main = async (): Promise<void> => {
  const wanted = process.argv.slice(2);
  const realms = (await listAllForOperator()).filter(
    (r) => wanted.length === 0 || wanted.includes(r.stringId) || wanted.includes(String(r.id)),
  );
  if (realms.length === 0) throw new Error(`no organization ${wanted.join(', ')}`);
  for (const realm of realms) {
    const started = Date.now();
    const written = await doReindexRealm(
      realm.id,
      (n) => n % 10_000 === 0 && console.log(`  ${realm.stringId || '(root)'}: ${n} messages`),
    );
    console.log(
      `${realm.stringId || '(root)'} (${realm.id}): ${written} messages indexed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
};

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
