// `npm run password -- EMAIL...`: prints the development data set's password of each account, as
// upstream's print_initial_password does (lib/passwords.ts devPassword: the documented rule).
import { devPassword } from '../lib/passwords';

const emails = process.argv.slice(2);
if (emails.length === 0) {
  console.error('usage: npm run password -- EMAIL [EMAIL...]');
  process.exit(2);
}
for (const email of emails) console.log(`${email}\t${devPassword(email)}`);
