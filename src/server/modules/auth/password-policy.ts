import { PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from '../../../contract/auth.ts';
import { invalidInput } from '../../lib/errors.ts';

/**
 * The rule for a password someone chooses (registration, reset link, invitation, /account):
 * at least PASSWORD_MIN_LENGTH characters (the contract checks that too), not one of the most
 * common passwords, not one or a few characters repeated, and not the account's own email or
 * username (NIST SP 800-63B §5.1.1.2: a list of common and compromised values, no composition rules).
 *
 * The list is the ranked password dictionary of @zxcvbn-ts/language-common (about 49,000 passwords
 * from breach corpora, of which about 1,600 are 10 characters or longer: only those can pass the
 * length rule, so only those are kept). It is the list zxcvbn-ts itself scores with, published
 * with it and kept up to date by that project; the dedicated small packages (common-password,
 * fxa-common-password-list, password-blacklist) are older, rarely used lists. It is loaded on the
 * server only, the first time a password is checked: the panel's bundles never carry it.
 */
let common: Promise<ReadonlySet<string>> | undefined;

function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) =>
    new Set(dictionary['passwords-common'].filter((p) => p.length >= PASSWORD_MIN_LENGTH).map((p) => p.toLowerCase())));
  return common;
}

/** Fewer different characters than this ("aaaaaaaaaa", "1212121212", "abcabcabca") is too easy to guess. */
const MIN_DISTINCT_CHARACTERS = 4;

/** Why the password cannot be used, or null. `personal`: the account's email and username. */
export async function passwordProblem(password: string, personal: (string | null | undefined)[] = []): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.short;
  if (password.length > 256) return PASSWORD_MESSAGES.long;
  if (new Set(password.toLowerCase()).size < MIN_DISTINCT_CHARACTERS) return PASSWORD_MESSAGES.simple;
  const lower = password.toLowerCase();
  if ((await commonPasswords()).has(lower)) return PASSWORD_MESSAGES.common;
  for (const value of personal) {
    if (!value) continue;
    const v = value.trim().toLowerCase();
    const local = v.includes('@') ? v.slice(0, v.indexOf('@')) : v;
    if (lower === v || lower === local) return PASSWORD_MESSAGES.personal;
  }
  return null;
}

/** Refuses the password with 400 and the message under the form's field `field`. */
export async function assertUsablePassword(password: string, field: string, personal: (string | null | undefined)[] = []): Promise<void> {
  const problem = await passwordProblem(password, personal);
  if (problem) throw invalidInput([{ path: `body.${field}`, field, message: problem }]);
}
