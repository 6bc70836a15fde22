// `npm run password -- EMAIL...`: prints the development data set's password of each account, as
// upstream's print_initial_password does (lib/passwords.ts devPassword: the documented rule), from
// DEV_PASSWORD_SECRET, or from the development secret when DEVELOPMENT_MODE=on (what npm start seeds).
import { devPassword } from '../lib/passwords';

const emails = process.argv.slice(2);
if (emails.length === 0) {
  console.error('usage: npm run password -- EMAIL [EMAIL...]');
  process.exit(2);
}
try {
  for (const email of emails) console.log(`${email}\t${devPassword(email)}`);
} catch (error) {
  // No secret to derive from (DEV_PASSWORD_SECRET unset outside development mode): say so, no stack.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
