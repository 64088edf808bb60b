/**
 * New passwords (sign-up, a password change) are checked against a list of common and leaked ones (ASVS 5.0 6.2.4,
 * 6.2.12; NIST SP 800-63B 5.1.1.2), offline: the passwords dictionary of @zxcvbn-ts/language-common (MIT), about
 * 49,000 of the most used passwords in public breach corpora, about 18,000 of them of 8 characters or more. Case
 * does not matter ("Password1" is "password1"). Read once, on the first check (about 80 ms), not at start-up.
 */
let list: Promise<ReadonlySet<string>> | undefined;

const commonPasswords = () =>
  (list ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((password) => password.toLowerCase())),
  ));

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}
