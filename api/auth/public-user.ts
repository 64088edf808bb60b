import type { User } from '../../contracts/auth.ts';
import type { UserRecord } from '../storage/records.ts';

/** The user as the API shows it: never the password hash. */
export function publicUser(user: UserRecord): User {
  return { id: user.id, email: user.email, name: user.name, license: user.license };
}
